/**
 * The layer order of docs/architecture.md, checked by `npm run layers` (part of `npm run lint`).
 * A module may import from its own layer and any layer below it, never from one above.
 */
const LAYERS = [
  ['entry', ['src/cli\\.ts', 'src/cli/', 'src/start\\.ts']],
  ['server', ['src/server\\.ts']],
  ['routes', ['src/routes/']],
  ['http', ['src/http/']],
  ['assembly', ['src/core\\.ts', 'src/worker/', 'src/jobs/', 'src/admin/']],
  ['commands', ['src/commands/']],
  ['presenters', ['src/presenters/']],
  ['context', ['src/context\\.ts', 'src/config\\.ts', 'src/adminToken\\.ts']],
  ['instruments', ['src/instruments/']],
  ['processing', ['src/processing/']],
  ['versioning', ['src/versioning/']],
  ['domain', ['src/domain/']],
  ['schemas', ['src/schemas/']],
  ['auth', ['src/auth/']],
  ['storage', ['src/storage/']],
  ['foundation', ['src/ids/', 'src/errors/', 'src/net/', 'src/clock\\.ts', 'src/logger\\.ts', 'src/packageInfo\\.ts']],
];

/**
 * Imports allowed to run up the order, each with its reason (docs/architecture.md repeats them).
 * Keep this short: a new entry is a design decision, not a way to make lint pass.
 */
const ALLOWED_UPWARD = [];

const pathOf = (layer) => `^(${layer[1].join('|')})`;

const layerRules = LAYERS.slice(1).map((layer, index) => ({
  name: `layer-${layer[0]}`,
  comment: `${layer[0]} may not import from ${LAYERS.slice(0, index + 1)
    .map(([name]) => name)
    .join(', ')}`,
  severity: 'error',
  from: { path: pathOf(layer) },
  to: {
    path: `^(${LAYERS.slice(0, index + 1)
      .flatMap(([, paths]) => paths)
      .join('|')})`,
    pathNot: ALLOWED_UPWARD.map(({ to }) => `^${to}$`),
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'A circle of imports has no layer order.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'every-module-has-a-layer',
      comment: 'A module outside every layer escapes the check: add its folder to LAYERS.',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.map(pathOf) },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.d\\.ts$' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
