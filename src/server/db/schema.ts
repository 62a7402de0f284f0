/** The database schema. Each domain adds its tables here; drizzle-kit generates migrations from it. */
export {};
