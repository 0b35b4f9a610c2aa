import * as fs from 'fs';
import * as path from 'path';
import { isSemverVersion, majorOfVersion, SEMVER_PATTERN } from '../src/private/semver-version';

describe('isSemverVersion', () => {
  test("its pattern is the lock schema's $defs/semver pattern, so synth accepts no version a lock refuses", () => {
    // GIVEN the lock schema
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'lock.schema.json'), 'utf-8'));

    // THEN the same regular expression, compiled with ajv's unicode flag
    expect(SEMVER_PATTERN.source).toBe(schema.$defs.semver.pattern);
    expect(SEMVER_PATTERN.flags).toBe('u');
  });

  test.each(['v1.0.0', ' 1.0.0', '1.0.0 ', '1.0', '01.0.0', '=1.0.0', '1.0.0-01', ''])('%j is not a version', (text) => {
    expect(isSemverVersion(text)).toBe(false);
  });

  test('a value that is not a string is not a version', () => {
    expect(isSemverVersion(1)).toBe(false);
  });

  test('a version beyond what the semver package compares (a major over 2^53) is not a version', () => {
    expect(isSemverVersion('9007199254740993.0.0')).toBe(false);
  });

  test('the major of a version with prerelease and build metadata', () => {
    expect(majorOfVersion('2.1.0-rc.1+build.5')).toBe(2);
  });

  test('the major of "v2.0.0" is undefined: no version', () => {
    expect(majorOfVersion('v2.0.0')).toBeUndefined();
  });
});
