// One flat config for every workspace. Type-aware rules catch the async mistakes that matter
// most in socket, bus and database callback code.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/coverage/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.jest },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@fieldops/*/src/*', '**/apps/*'],
              message: 'Import a workspace through its package entry point.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@fieldops/inspection-api',
                '@fieldops/relay-gateway',
                '@fieldops/connector-gateway',
                '@fieldops/all-in-one',
                '@fieldops/inspection-bot',
              ],
              message: 'Libraries never import apps.',
            },
          ],
        },
      ],
    },
  },
  {
    // Open unions ('message' | 'typing' | string) document the known values of extensible protocol fields.
    files: ['libs/contracts/**/*.ts'],
    rules: { '@typescript-eslint/no-redundant-type-constituents': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
