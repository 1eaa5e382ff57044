// ESLint for Scorekeeper's JavaScript: the page scripts and modules, the service worker, the tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/", "docs/", "htmlcov/", "mutants/"] },
  js.configs.recommended,
  {
    rules: {
      "eqeqeq": "error",
      "no-var": "error",
      "prefer-const": "error",
      // Production rewrites each import to the file's hashed name only where the statement ends with ";".
      "semi": ["error", "always"],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
  {
    files: ["static/**/*.js"],
    ignores: ["static/outbox.js", "static/sw.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // The site-wide script is a classic one (every page, before any module).
    files: ["static/scorekeeper.js"],
    languageOptions: { sourceType: "script" },
    rules: { "no-var": "off", "prefer-const": "off" },
  },
  {
    files: ["static/sw.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.serviceworker } },
  },
  {
    // The outbox runs in the page and in the service worker: only what both have.
    files: ["static/outbox.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.worker } },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
