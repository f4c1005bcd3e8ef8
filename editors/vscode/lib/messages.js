'use strict';
// What the user reads when something goes wrong: words, not error codes.
// No `vscode` import.
const { ErrorCodes } = require('./client');

function fileName(uri) {
  const path = decodeURIComponent(String(uri).replace(/^[a-z]+:(\/\/[^/]*)?/i, ''));
  return path.split('/').pop() || String(uri);
}

/** "line 8" for a diagnostic (0-based lines on the wire). */
function where(d) {
  return d && d.range ? `line ${d.range.start.line + 1}` : '';
}

/** One sentence about the diagnostics of a text that could not be loaded. */
function invalidText(uri, diagnostics = []) {
  const errors = diagnostics.filter((d) => d.severity === 1);
  const first = errors[0] || diagnostics[0];
  const n = errors.length || diagnostics.length;
  const what = n === 1 ? 'an error' : `${n} errors`;
  const detail = first ? ` (${first.message}, ${where(first)})` : '';
  return `${fileName(uri)} has ${what}${detail}. The outline appears when the file is fixed; the Problems panel lists every error.`;
}

/**
 * A friendly sentence for a failed request, or null when nothing should be
 * said (a request the user cancelled).
 * @param {Error & {code?: number, method?: string, data?: any}} err
 * @param {{uri?: string, action?: string}} context
 */
function friendlyMessage(err, { uri, action } = {}) {
  const name = uri ? fileName(uri) : 'the outline';
  const method = err && err.method;
  switch (err && err.code) {
    case ErrorCodes.RequestCancelled:
      return null;
    case ErrorCodes.InvalidParams:
      if (method === 'expandAll' || (method === 'navigate' && action === 'expandSiblings')) {
        return `${name} is an accordion (expansion: single): one group is open at a time among its siblings, so "${action === 'expandSiblings' ? 'Expand sibling groups' : 'Expand all'}" is not possible. Open the group you want.`;
      }
      return `outline-server refused ${action || method || 'the request'}: ${err.message}`;
    case ErrorCodes.InvalidOutline:
      return invalidText(uri, err.data && err.data.diagnostics);
    case ErrorCodes.UnknownOutline:
      return `The outline of ${name} is not open on the server any more; it is being opened again.`;
    case ErrorCodes.UnknownSection:
      return `That item is no longer in the outline of ${name} (the file changed).`;
    case ErrorCodes.FileError:
      return `Cannot read ${name}: ${err.message}`;
    default:
      break;
  }
  if (err && /outline-server (exited|is not running)/.test(err.message)) {
    return 'outline-server is not running. Run "Outline: Restart the server" to start it again.';
  }
  if (err && err.code === 'ENOENT') {
    return 'outline-server was not found. Set "outlineServer.server.path" to its path, or put it on PATH.';
  }
  return `outline-server: ${err && err.message ? err.message : String(err)}`;
}

module.exports = { friendlyMessage, invalidText, fileName };
