/**
 * The layer rules of docs/architecture.md, checked by `make deps` (part of `make test`):
 * a wrong-way import fails the build. Paths are relative to the repository root.
 */
const IO_BUILTINS = '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|cluster|dgram|dns|tls|worker_threads|readline)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'schemas-import-nothing-of-ours',
      comment: 'schemas/ is the contract shared by the ETL and the service: it imports neither (nor tools, bench, test).',
      severity: 'error',
      from: { path: '^schemas/' },
      to: { path: '^(etl|service|tools|bench|test)/' },
    },
    {
      name: 'schemas-hold-no-io',
      comment: 'schemas/ holds contracts and vocabulary, no I/O: file formats and table checks live in lib/.',
      severity: 'error',
      from: { path: '^schemas/' },
      to: { path: [IO_BUILTINS, '^(node:)?os$', 'node_modules/@duckdb/'] },
    },
    {
      name: 'lib-is-shared-code',
      comment: 'lib/ holds code both sides use (geometry, the serving files\' formats, the table check, the file lock): it imports only schemas/ of ours.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(etl|service|tools|bench|test)/' },
    },
    {
      name: 'etl-never-imports-service',
      comment: 'The ETL and the service share only schemas/ and the published files (DESIGN §1).',
      severity: 'error',
      from: { path: '^etl/' },
      to: { path: '^(service|tools|bench|test)/' },
    },
    {
      name: 'service-never-imports-etl',
      comment: 'The ETL and the service share only schemas/ and the published files (DESIGN §1).',
      severity: 'error',
      from: { path: '^service/' },
      to: { path: '^(etl|tools|bench|test)/' },
    },
    {
      name: 'domain-is-pure',
      comment: 'service/domain/ is pure: no I/O, no HTTP, no database, no per-build resources, no clock of its own.',
      severity: 'error',
      from: { path: '^service/domain/' },
      to: {
        path: [IO_BUILTINS, '^service/(middleware|routes|store|ledger|build|search|records|valuers|str|location|accounts)/', '^service/(app|server|log|metrics|openapi|config)\\.ts$', 'node_modules/(koa|@koa|@duckdb|pg|pino|prom-client)/'],
      },
    },
    {
      name: 'data-code-imports-no-http',
      comment: 'Stores, indexes, models and the ledger return results; only routes and middleware speak HTTP.',
      severity: 'error',
      from: { path: '^service/(store|search|records|valuers|str|build|ledger|location|domain|accounts)/' },
      to: { path: ['^service/(middleware|routes)/', '^service/app\\.ts$', 'node_modules/(koa|@koa)/'] },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes the load order (and the layers) ambiguous.',
      severity: 'error',
      from: { path: '^(schemas|lib|etl|service|tools)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    parser: 'swc',
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    builtInModules: { add: [] },
  },
};
