import { docSections, runSnippet } from './doc-snippets';

const sections = docSections();

test('docs/errors.md documents every code from CAP001 to CAP011 with a snippet and its message', () => {
  // WHEN
  const codes = sections.map((s) => s.code);

  // THEN
  expect(codes).toEqual(['CAP001', 'CAP002', 'CAP003', 'CAP004', 'CAP005', 'CAP006', 'CAP007', 'CAP008', 'CAP009', 'CAP010', 'CAP011']);
});

describe.each(sections.map((s) => [s.code, s] as const))('the %s snippet', (code, section) => {
  test('fails with exactly the message the documentation shows', () => {
    // WHEN the documented snippet runs
    const message = runSnippet(section.snippet);

    // THEN it is refused with the documented violation, code first
    expect(message).toEqual(section.message);
    expect(message.startsWith(`${code} `)).toBe(true);
  });
});
