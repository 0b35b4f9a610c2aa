import { docSections, runSnippet } from './doc-snippets';
import { ViolationCode } from '../src';
import { internalError } from '../src/check/internal-error';

const sections = docSections();

test('docs/errors.md documents every code of ViolationCode, in order, each with its message', () => {
  // WHEN
  const codes = sections.map((s) => s.code);

  // THEN
  expect(codes).toEqual(Object.values(ViolationCode));
  expect(codes[0]).toBe('CAP000');
});

describe.each(sections.filter((s) => s.snippet).map((s) => [s.code, s] as const))('the %s snippet', (code, section) => {
  test('fails (or warns) with exactly the message the documentation shows', () => {
    // WHEN the documented snippet runs
    const message = runSnippet(section.snippet);

    // THEN it is refused with the documented violation, code first
    expect(message).toEqual(section.message);
    expect(message.startsWith(`${code} `)).toBe(true);
  });
});

describe.each(sections.flatMap((s) => s.more.map((m, i) => [s.code, i + 2, m] as const)))('the %s snippet number %d', (code, _n, example) => {
  test('fails with exactly the message the documentation shows after it', () => {
    const message = runSnippet(example.snippet);

    expect(message).toEqual(example.message);
    expect(message.startsWith(`${code} `)).toBe(true);
  });
});

test('the CAP000 example is exactly what a crash in collect on that object reports', () => {
  // GIVEN the crash the documentation describes
  const crash = internalError("the 'collect' stage", new TypeError("Cannot read properties of undefined (reading 'spec')"), 'cdn/Routing/Settings');

  // THEN its report line is the documented one
  expect(`${crash.code} ${crash.message}`).toEqual(sections[0].message);
});
