// Validators of environment variables and the parser that reports every offending one. The bottom
// layer beside libs/contracts: each infrastructure lib declares the variables it reads next to its own
// settings builder (libs/db, libs/kafka), and every app's schema spreads those shapes.
export * from './env-vars';
export * from './parse-config';
