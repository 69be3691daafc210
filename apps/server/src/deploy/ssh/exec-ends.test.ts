// A command whose exec request is left unanswered ends, and says why: the connection dying at
// that moment is a lost connection (the deployment log tells the user to check the link and run
// again), not the server refusing the command. Seen in a drill: a link dropped between ssh2
// opening the channel and the server's answer read "Could not start a command: Unable to exec".
import { afterEach, describe, expect, it } from 'vitest';
import { sshServerThatOnExec, type TSshServer } from '../../../test/peers/test-ssh-server';
import { sshFailure } from '../../../test/support/ssh-failure';
import { connectSsh } from './index';

let server: TSshServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const login = (port: number) =>
  connectSsh({ host: '127.0.0.1', port, username: 'root', password: 'any', timeoutMs: 5000 });

describe('an exec request the server never answers', () => {
  it('the connection ends under it: connection_lost, and so does the next command', async () => {
    server = await sshServerThatOnExec('drop');
    const session = await login(server.port);
    const error = await sshFailure(session.run('true'));
    expect(server.execs()).toBe(1);
    expect(error.code).toBe('connection_lost');
    expect(error.message).toBe('The SSH connection is closed.');
    expect((await sshFailure(session.run('true'))).code).toBe('connection_lost');
    expect(server.execs()).toBe(1);
  });

  it('a file written while the connection ends under it: connection_lost', async () => {
    server = await sshServerThatOnExec('drop');
    const session = await login(server.port);
    const error = await sshFailure(session.writeFile('/tmp/portico-test', 'x\n', 0o644));
    expect(error.code).toBe('connection_lost');
  });

  it('the server refuses it and stays connected: a protocol error naming the refusal', async () => {
    server = await sshServerThatOnExec('refuse');
    const session = await login(server.port);
    const error = await sshFailure(session.run('true'));
    expect(error.code).toBe('protocol');
    expect(error.message).toBe('Could not start a command: Unable to exec');
    expect((await sshFailure(session.run('true'))).code).toBe('protocol');
    expect(server.execs()).toBe(2);
    session.close();
  });
});
