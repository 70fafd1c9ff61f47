import { useMinimalHashCostInTests } from '../lib/passwords.js';

// Production's argon2id cost makes every created or signed-in account cost a noticeable slice of
// CPU; the tests check what is hashed and verified, not how hard.
useMinimalHashCostInTests();
