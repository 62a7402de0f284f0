import { repairStoredNumbers } from '../numbers/repair-stored-numbers';
import type { Database } from './database';
import { dataRepairs } from './data-repairs-table';

/** What one data repair did: values rewritten, and values it left alone, each said in a line. */
interface DataRepairOutcome {
  changed: number;
  skipped: string[];
}

/**
 * A change to stored rows that SQL cannot write (it needs the app's own rules, such as
 * libphonenumber's), run once per database after the SQL migrations. Its name is recorded for good.
 */
export interface DataRepair {
  name: string;
  run(db: Database): Promise<DataRepairOutcome>;
}

export interface DataRepairReport extends DataRepairOutcome {
  name: string;
}

/** In the order they run; a name, once released, is never reused. */
export const dataRepairList: readonly DataRepair[] = [{ name: 'stored-numbers-e164', run: repairStoredNumbers }];

/**
 * Runs each repair not yet recorded, in a transaction with its record, so that a repair that
 * fails is run again at the next start. Resolves to what the repairs that ran did.
 */
export async function runDataRepairs(db: Database, repairs: readonly DataRepair[] = dataRepairList): Promise<DataRepairReport[]> {
  const reports: DataRepairReport[] = [];
  for (const repair of repairs) {
    const report = await db.transaction(async (tx) => {
      const claimed = await tx.insert(dataRepairs).values({ name: repair.name }).onConflictDoNothing().returning({ name: dataRepairs.name });
      if (claimed.length === 0) return null;
      return { name: repair.name, ...(await repair.run(tx)) };
    });
    if (report) reports.push(report);
  }
  return reports;
}
