import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      '.data/**',
      '.next/**',
      'dist/**',
      'node_modules/**',
      'bench/.datasets/**',
      'bench/.profiles/**',
      'next-env.d.ts',
      'src/migrations/**',
      'src/app/(payload)/admin/importMap.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Unused bindings are dead code; a leading underscore marks a parameter a signature requires.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-console': 'off',
    },
  },
  {
    // Tests and the fuzzer read JSON answers, which are untyped by nature.
    files: ['tests/**/*.ts', 'scripts/fuzzer.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { process: 'readonly', require: 'readonly', module: 'writable' } },
  },
  prettier,
)
