/*
 * The Node version guard (ADR 0150): `npm install`, `npm ci`, `npm start` and `npm test` run it
 * first. On a Node older than package.json's `engines.node` it prints one line naming the version
 * to install (.nvmrc) and how to get it, and exits 1; otherwise it prints nothing.
 *
 * It must run on the old Node it refuses, so it is plain CommonJS in ES2017 syntax (Node 8 and
 * later parse it: no `?.`, no `??`, no imports) with no dependency. `--pretend-version=X.Y.Z`
 * checks X.Y.Z instead of the running Node; only the tests pass it.
 */
/* global require, process, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports */
'use strict'

var fs = require('fs')
var path = require('path')

var root = path.join(__dirname, '..')

function fail(line) {
  process.stderr.write(line + '\n')
  process.exit(1)
}

// "24", "v24", "24.11.1" -> [24, 11, 1] (missing parts are 0); null when it is not a version.
function parseVersion(text) {
  var match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(String(text).trim())
  if (!match) return null
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)]
}

function compare(a, b) {
  for (var i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1
  }
  return 0
}

// One comparator of an npm semver range: >=, >, <=, <, =, ^, ~ or a bare (partial) version.
function satisfiesComparator(version, comparator) {
  var match = /^(>=|<=|>|<|=|\^|~)?\s*v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(comparator)
  if (!match) return null
  var op = match[1] || ''
  var parts = [match[2], match[3], match[4]]
  var given = 0
  while (given < 3 && parts[given] !== undefined && /^\d+$/.test(parts[given])) given++
  var base = [Number(parts[0]), given > 1 ? Number(parts[1]) : 0, given > 2 ? Number(parts[2]) : 0]
  var order = compare(version, base)
  if (op === '>=') return order >= 0
  if (op === '<=') return order <= 0 || samePrefix(version, base, given)
  if (op === '>') return order > 0 && !samePrefix(version, base, given)
  if (op === '<') return order < 0
  if (op === '^') return order >= 0 && version[0] === base[0]
  if (op === '~') return order >= 0 && samePrefix(version, base, Math.min(given, 2))
  return samePrefix(version, base, given)
}

function samePrefix(version, base, count) {
  for (var i = 0; i < count; i++) {
    if (version[i] !== base[i]) return false
  }
  return true
}

// An npm range of `||` alternatives, each a space-separated list of comparators that all hold.
// null when the range uses syntax this small reader does not know (hyphen ranges, for example).
function satisfies(version, range) {
  var alternatives = String(range).split('||')
  var known = true
  for (var i = 0; i < alternatives.length; i++) {
    var comparators = alternatives[i]
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean)
    if (comparators.length === 0) return true
    var all = true
    for (var j = 0; j < comparators.length; j++) {
      var result = satisfiesComparator(version, comparators[j])
      if (result === null) known = false
      if (result !== true) all = false
    }
    if (all) return true
  }
  return known ? false : null
}

function readFile(name) {
  var file = path.join(root, name)
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null
}

function main(argv) {
  var pretend = null
  for (var i = 0; i < argv.length; i++) {
    if (argv[i].indexOf('--pretend-version=') === 0) pretend = argv[i].slice('--pretend-version='.length)
  }
  var current = parseVersion(pretend === null ? process.versions.node : pretend)
  if (!current)
    fail('check-node: --pretend-version must be a version such as 20.20.2, not "' + pretend + '".')

  var manifest = JSON.parse(readFile('package.json') || '{}')
  var range = manifest.engines && manifest.engines.node
  var nvmrc = (readFile('.nvmrc') || '').trim()
  var wanted = parseVersion(nvmrc) ? nvmrc.replace(/^v/, '') : range
  if (!range && !wanted)
    fail('check-node: neither .nvmrc nor package.json engines.node names a Node version.')
  if (!range) range = '>=' + wanted

  var ok = satisfies(current, range)
  if (ok === null) fail('check-node: cannot read package.json engines.node "' + range + '".')
  if (ok) return

  var floor = /^>=\s*v?(\d+(?:\.\d+){0,2})$/.exec(range.trim())
  var oldest = floor && floor[1] !== wanted ? 'at least ' + floor[1] + '; ' : ''
  fail(
    'This shop needs Node.js ' +
      wanted +
      ' (' +
      oldest +
      'you have ' +
      current.join('.') +
      '): install it from https://nodejs.org or run `nvm install` here (it reads .nvmrc).',
  )
}

main(process.argv.slice(2))
