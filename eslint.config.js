import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'var/', 'node_modules/', 'drizzle/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // process.env is read in one place: src/server/config.ts.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts.' },
      ],
    },
  },
  {
    // HTML that may be rendered is a type only the sanitiser makes (src/shared/safe-html.ts):
    // no `as SafeHtml` outside its producers, no inner HTML outside the SafeHtml components.
    files: ['src/**/*.{ts,tsx}'],
    ignores: [
      'src/shared/safe-html.ts',
      'src/server/lib/sanitize.ts',
      'src/client/components/SafeHtml.tsx',
      // Tests build fixtures of either kind on purpose.
      'src/**/*.test.{ts,tsx}',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "TSAsExpression > TSTypeReference[typeName.name='SafeHtml']",
          message: 'SafeHtml comes only from the sanitiser or escapeHtml/html`` (src/shared/safe-html.ts).',
        },
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message:
            'Render HTML with HtmlContent (src/client/components/SafeHtml.tsx), which takes only SafeHtml.',
        },
      ],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/server/config.ts', 'tests/**', 'scripts/**', '*.config.ts', '*.config.js'],
    rules: { 'no-restricted-properties': 'off' },
  },
)
