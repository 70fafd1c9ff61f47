// Resolves the server's imports for eslint-plugin-boundaries: the server is ESM on NodeNext, so
// it imports './service.js' for the file './service.ts', which the plain node resolver cannot
// find (an import it cannot resolve is one the boundaries rule cannot judge). Everything else
// goes to the node resolver, as in the web app's config.
const fs = require('node:fs');
const path = require('node:path');
const node = require('eslint-import-resolver-node');

exports.interfaceVersion = 2;

exports.resolve = function resolve(source, file, config) {
  if (source.startsWith('.') && source.endsWith('.js')) {
    const typescript = path.resolve(path.dirname(file), `${source.slice(0, -3)}.ts`);
    if (fs.existsSync(typescript)) return { found: true, path: typescript };
  }
  return node.resolve(source, file, config);
};
