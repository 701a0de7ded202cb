/**
 * What Helm does to a template's text, for the part of Go's text/template
 * that matters here (text/template/parse/lex.go): text outside `{{ }}` is
 * copied as it is; `{{- ` and ` -}}` trim the white space beside the action;
 * an action whose pipeline is only a string constant (raw `...` or
 * interpreted "...") prints that string. Any other action (a field such as
 * `.Chart.Version`, a function such as `ToUpper`, a comment) would be
 * evaluated by Helm: this throws, naming it. There is no helm binary here.
 */
const SPACE = /[ \t\r\n]/;

export function renderHelmTemplate(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const open = text.indexOf('{{', i);
    if (open < 0) {
      return out + text.slice(i);
    }
    let literal = text.slice(i, open);
    let j = open + 2;
    // A left trim marker is "-" followed by white space.
    if (text[j] === '-' && SPACE.test(text[j + 1] ?? '')) {
      literal = literal.replace(/[ \t\r\n]+$/, '');
      j += 1;
    }
    out += literal;
    while (SPACE.test(text[j] ?? '')) {
      j++;
    }
    let value: string;
    if (text[j] === '`') {
      const end = text.indexOf('`', j + 1);
      if (end < 0) {
        throw new Error(`unterminated raw quote at ${j}`);
      }
      value = text.slice(j + 1, end);
      j = end + 1;
    } else if (text[j] === '"') {
      const match = /^"(?:[^"\\\n]|\\.)*"/.exec(text.slice(j));
      if (!match) {
        throw new Error(`unterminated quoted string at ${j}`);
      }
      value = JSON.parse(match[0]) as string;
      j += match[0].length;
    } else {
      throw new Error(`Helm would evaluate the action at ${open}: ${JSON.stringify(text.slice(open, open + 40))}`);
    }
    while (SPACE.test(text[j] ?? '')) {
      j++;
    }
    let trimAfter = false;
    // A right trim marker is white space (consumed above) followed by "-}}".
    if (text.startsWith('-}}', j) && SPACE.test(text[j - 1])) {
      trimAfter = true;
      j += 1;
    }
    if (!text.startsWith('}}', j)) {
      throw new Error(`Helm would evaluate the action at ${open}: ${JSON.stringify(text.slice(open, open + 40))}`);
    }
    out += value;
    i = j + 2;
    if (trimAfter) {
      while (SPACE.test(text[i] ?? '')) {
        i++;
      }
    }
  }
}
