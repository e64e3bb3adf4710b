import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "data/**", "coverage/**", "test-artifacts/**", "public/vendor/**", ".bench-build/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": ["error", { selector: "ExportDefaultDeclaration", message: "Use named exports." }],
    },
  },
  // The layers of README's architecture (test/unit/architecture/layers.test.ts checks the same,
  // dynamic imports included): the domain imports only itself and a few pure packages...
  ...[2, 3].map((depth) => ({
    files: [`src/domain/${"*/".repeat(depth - 1)}*.ts`],
    rules: {
      // ...reads no clock and draws no randomness: time and random sources come in as arguments,
      // so the same inputs give the same result on every replica and in every test.
      "no-restricted-syntax": [
        "error",
        { selector: "ExportDefaultDeclaration", message: "Use named exports." },
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: "src/domain reads no clock: take the time as an argument." },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "src/domain reads no clock: take the time as an argument." },
        { selector: "MemberExpression[object.name='performance']", message: "src/domain reads no clock: take the time as an argument." },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: "src/domain draws no randomness: take a (seeded) source as an argument." },
      ],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "node:crypto",
              importNames: ["randomInt", "randomBytes", "randomUUID", "getRandomValues", "randomFillSync", "randomFill"],
              message: "src/domain draws no randomness: take the source as an argument (hashing is fine).",
            },
          ],
          patterns: [
            { regex: `^(\\.\\./){${depth}}`, message: "src/domain imports only itself: receive the value as an argument or define a port in the domain." },
            { regex: "^(?!\\.|node:crypto$|zod$|trading-signals$|wabt$|simple-statistics$)", message: "src/domain uses only pure packages (a new one is a decision for docs/decisions.md)." },
          ],
        },
      ],
    },
  })),
  {
    // ...and what lies below the HTTP facade and the actors never reaches up into them.
    files: ["src/application/**/*.ts", "src/backtest/**/*.ts", "src/store/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(\\.\\./)+(http|actors)/", message: "Return a typed result for the HTTP layer to word; take what an actor computes as an argument." }] },
      ],
    },
  },
  {
    // Promise mistakes the compiler lets through, checked with type information (about 9 s more
    // per lint): a floating promise is an unhandled rejection waiting to end the process
    // (src/logging/process-faults.ts), and `return promise` inside `try … finally` runs the
    // finally block (a store's close) before the promise settles, a regression made and caught
    // once in the CLI.
    files: ["src/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
    },
  },
  {
    // Plain Node scripts (build, CI checks) run outside TypeScript's view of globals.
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    files: ["eslint.config.js", "vitest.config.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
);
