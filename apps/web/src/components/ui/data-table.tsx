import type * as React from 'react';
import { cn } from '@/lib/utils';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from './table';

/** One column: its header (an sr-only label over a column of buttons) and each row's cell. */
export type TColumn<T> = {
  key: string;
  header: React.ReactNode;
  cell: (row: T) => React.ReactNode;
  className?: string;
};

/** The test id and data attributes a row (or its card) carries for tests and styles. */
export type TRowAttributes = { 'data-testid': string } & Record<
  `data-${string}`,
  string | undefined
>;

type TTableProps<T> = {
  columns: readonly TColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowAttributes: (row: T) => TRowAttributes;
  testId: string;
};

/** A list as a table: one header row from the columns, one row per item. */
export function DataTable<T>({ columns, rows, rowKey, rowAttributes, testId }: TTableProps<T>) {
  return (
    <Table data-testid={testId}>
      <TableHeader>
        <TableRow>
          {columns.map((column) => (
            <TableHead key={column.key}>{column.header}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={rowKey(row)} {...rowAttributes(row)}>
            {columns.map((column) => (
              <TableCell key={column.key} className={column.className}>
                {column.cell(row)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * A list as a table on wide screens and as cards below `lg`, where its columns do not fit (the
 * admin lists): both are in the page, CSS shows one, so a resize needs no render.
 */
export function TableOrCards<T>({
  card,
  cardAttributes,
  cardClassName,
  cardsTestId,
  ...table
}: TTableProps<T> & {
  card: (row: T) => React.ReactNode;
  cardAttributes: (row: T) => TRowAttributes;
  cardClassName?: string;
  cardsTestId: string;
}) {
  return (
    <>
      <div className="hidden lg:block">
        <DataTable {...table} />
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 lg:hidden" data-testid={cardsTestId}>
        {table.rows.map((row) => (
          <li
            key={table.rowKey(row)}
            className={cn('rounded-lg border border-border p-4', cardClassName)}
            {...cardAttributes(row)}
          >
            {card(row)}
          </li>
        ))}
      </ul>
    </>
  );
}
