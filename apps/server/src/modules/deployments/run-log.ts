import type { TLanguage } from '@portico/shared/api-error';
import { renderStored, renderText, type TText } from '@portico/shared/i18n/text';
import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type { TDeploymentLogRow, TProxyConfigurationRow } from '../../db/schema';
import { isoTime } from '../../lib/iso-time';
import type { TDeploymentsRepository } from './deployments.repository';
import type { TLogBus } from './log-bus';

/**
 * A stored line for a socket, its words in the run's language; each socket renders the text
 * again in its viewer's language (ws-gateway).
 */
export function progressMessage(row: TDeploymentLogRow) {
  return {
    type: 'deployment_progress' as const,
    data: {
      id: row.id,
      deploymentId: row.deploymentId,
      message: row.message,
      text: row.text ?? null,
      level: row.level,
      timestamp: isoTime(row.timestamp),
    },
  };
}

/** A stored line for the API, in the reader's language (older rows: as they were stored). */
export function toLogEntry(row: TDeploymentLogRow, language: TLanguage) {
  return {
    id: row.id,
    configurationId: row.configurationId,
    deploymentId: row.deploymentId,
    level: row.level,
    message: renderStored(language, row),
    text: row.text ?? null,
    timestamp: isoTime(row.timestamp),
  };
}

/** A line as the engine gives it: words in the run's language, and the text they came from. */
export type TLine = { message: string; text: TText };

/** The line of a text in the run's language. */
export function lineOf(language: TLanguage, text: TText): TLine {
  return { message: renderText(language, text), text };
}

export type TRunLog = ReturnType<typeof createRunLog>;

/**
 * A run's log and status as everyone sees them: each line stored, then published to the log
 * sockets here and on other instances; each status change published likewise.
 */
export function createRunLog(deps: { deployments: TDeploymentsRepository; bus: TLogBus }) {
  /**
   * Lines of one configuration stored in one statement, then published in their order. Each is
   * stamped when it was said (`at`), not when its batch reached the database.
   */
  async function writeMany(
    configurationId: string,
    deploymentId: string | null,
    lines: { level: TLogLevel; line: TLine; at: Date }[],
  ) {
    const rows = await deps.deployments.addLogs(
      lines.map(({ level, line, at }) => ({
        configurationId,
        deploymentId,
        level,
        message: line.message,
        // Verbatim output (a plain string) reads the same in every language: its words are its text.
        text: typeof line.text === 'string' ? null : line.text,
        timestamp: at,
      })),
    );
    for (const row of rows) deps.bus.publish(configurationId, progressMessage(row));
  }

  return {
    writeMany,

    write(configurationId: string, deploymentId: string | null, level: TLogLevel, line: TLine) {
      return writeMany(configurationId, deploymentId, [{ level, line, at: new Date() }]);
    },

    status(row: Pick<TProxyConfigurationRow, 'id' | 'status'>, deploymentId: string | null) {
      deps.bus.publish(row.id, {
        type: 'deployment_status',
        data: { status: row.status, deploymentId },
      });
    },
  };
}
