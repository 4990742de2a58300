import { RejectLog } from '../../etl/sources/rejects.ts';

/** Reads a whole source file with a reader: every row it yields, and what it rejected. */
export async function readAllRows<Row>(
  reader: (path: string, rejects: RejectLog) => AsyncGenerator<Row>,
  path: string,
): Promise<{ rows: Row[]; rejects: RejectLog }> {
  const rejects = new RejectLog();
  const rows: Row[] = [];
  for await (const r of reader(path, rejects)) rows.push(r);
  return { rows, rejects };
}
