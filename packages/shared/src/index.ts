export * from './constants.js';
export * from './validation.js';
export * from './password.js';
export * from './schemas/common.js';
export * from './schemas/auth.js';
export * from './schemas/units.js';
export * from './schemas/doctors.js';
export * from './schemas/admins.js';
