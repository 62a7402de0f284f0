/** The database schema: each domain's tables and the database's own, gathered for Drizzle and drizzle-kit. */
export * from '../auth/schema';
export * from '../calls/schema';
export * from '../contacts/schema';
export * from '../instances/schema';
export * from '../jobs/schema';
export * from '../mail/schema';
export * from '../numbers/schema';
export * from '../payments/schema';
export * from '../plans/schema';
export * from '../preferences/schema';
export * from '../providers/payments/sandbox/schema';
export * from '../recordings/schema';
export * from '../support/schema';
export * from '../voice/schema';
export * from '../voicemail/schema';
export * from './data-repairs-table';
