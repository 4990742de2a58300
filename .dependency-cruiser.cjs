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
      name: 'mcp-speaks-only-http',
      comment: 'An MCP tool call is made as its REST request (service/mcp/): it reaches the ledger, the data and the handlers only through the endpoint, so it is metered exactly as REST.',
      severity: 'error',
      from: { path: '^service/mcp/' },
      to: { path: ['^service/(ledger|store|search|records|valuation|str|build|location|domain|accounts|lookups)/', '^service/(server|replicas)\\.ts$'], pathNot: '^service/ledger/types\\.ts$' },
    },
    {
      name: 'mcp-is-mounted-only-by-the-app',
      comment: 'The MCP server is a surface beside REST: only app.ts mounts it (and the stdio bin runs it); nothing of the request path depends on it.',
      severity: 'error',
      from: { path: '^service/', pathNot: '^service/(mcp/|app\\.ts$)' },
      to: { path: '^service/mcp/' },
    },
    {
      name: 'console-is-a-browser-client',
      comment: 'console/src runs in the browser and speaks to the service only through the public HTTP API (docs/adr/0010-console.md).',
      severity: 'error',
      from: { path: '^console/src/' },
      to: { path: ['^(schemas|lib|etl|service|tools|bench|test|clients)/', '^(node:)?[a-z_]+$'], pathNot: 'node_modules' },
    },
    {
      name: 'engine-imports-only-the-plan-list-of-stages',
      comment: 'etl/pipeline/ (the engine) runs a plan: of etl/stages/ only the plan list (etl/pipeline/stages.ts) imports, and only each stage\'s stage.ts, never staging\'s internals (issue 43).',
      severity: 'error',
      from: { path: '^etl/pipeline/' },
      to: { path: '^etl/stages/', pathNot: '^etl/stages/[^/]+/[^/]+/stage\\.ts$' },
    },
    {
      name: 'engine-imports-stages-only-through-the-plan-list',
      comment: 'Only etl/pipeline/stages.ts (the plan list) imports stage modules: the rest of the engine is handed the plan.',
      severity: 'error',
      from: { path: '^etl/pipeline/', pathNot: '^etl/pipeline/stages\\.ts$' },
      to: { path: '^etl/stages/' },
    },
    {
      name: 'engine-imports-only-the-registry-types',
      comment: 'The engine learns the sources from the staging stage (Stage.sources): of etl/sources/ it imports only the registry\'s types (source.ts) and the shared file helpers (io.ts), never the registry (index.ts) or a source\'s folder.',
      severity: 'error',
      from: { path: '^etl/pipeline/' },
      to: { path: '^etl/sources/(index\\.ts|[^/]+/)' },
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
