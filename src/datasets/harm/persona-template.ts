import { parse, tokenize } from '@huggingface/jinja';
import { InputError, describeError } from '../../core/index.js';
import { innermostUnclosedBlock, scanTags, type TemplateTag } from './template-tags.js';
import { templateVariables } from './template-variables.js';

/**
 * A persona template, compiled: what the simulated user is told to be, with `{{ … }}` holes that
 * a parameter row fills. Rendered by `@huggingface/jinja`, an interpreter that reaches no code,
 * files or network — the template is data, not a program with access to the machine.
 */
export interface PersonaTemplate {
  /** The template file, as messages name it. */
  readonly file: string;
  /** The parameters the template reads, in order of first use. */
  readonly variables: readonly string[];
  /** The template's text: rendered by a `TemplateRenderer`, within its bounds. */
  readonly source: string;
}

/** Whitespace handling as in the engine's own `Template`: a block tag's line leaves no blank line. */
const LEX_OPTIONS = { lstrip_blocks: true, trim_blocks: true } as const;

/**
 * Parses a template file's text.
 * @throws InputError `file:line: template syntax error (…)`: an unclosed tag, a token the lexer
 * refuses, a statement the parser refuses, a block never closed; also a template reading the
 * clock (`strftime_now`), since a persona must render the same on every run.
 */
export function compileTemplate(file: string, text: string): PersonaTemplate {
  const scanned = scanTags(text);
  if ('unclosed' in scanned) {
    const { line, opener } = scanned.unclosed;
    throw syntaxError(file, line, `${opener} is never closed`);
  }
  const { tags } = scanned;
  const tokens = lex(file, text, tags);
  let lastRead = -1;
  // The parser keeps no positions; the last token it looked at before failing says which tag it failed in.
  const watched = new Proxy(tokens, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) lastRead = Number(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  let program: ReturnType<typeof parse>;
  try {
    program = parse(watched);
  } catch (error) {
    if (lastRead >= tokens.length || !(error instanceof SyntaxError)) {
      const open = innermostUnclosedBlock(tags);
      if (open) throw syntaxError(file, open.line, `{% ${open.keyword} %} is never closed (no {% end${open.keyword} %})`);
    }
    const index = tagIndexOfToken(tokens, Math.min(lastRead, tokens.length - 1));
    const tag = tags[index];
    const open = innermostUnclosedBlock(tags.slice(0, index));
    if (tag?.keyword.startsWith('end') && open && tag.keyword !== `end${open.keyword}`) {
      // The engine says only "Unknown statement type: endfor"; the nesting mistake is what to fix.
      throw syntaxError(file, tag.line, `{% ${tag.keyword} %} while {% ${open.keyword} %} from line ${open.line} is still open`);
    }
    throw syntaxError(file, tag?.line ?? 1, describeError(error).replace(/^Parser Error: /, ''));
  }
  const variables = templateVariables(program as unknown as Parameters<typeof templateVariables>[0]);
  const clock = tags.find((tag) => tag.kind !== 'comment' && /\bstrftime_now\b/.test(tag.source));
  if (clock) {
    const line = clock.line;
    throw new InputError(`${file}:${line}: strftime_now reads the clock; a persona must render the same on every run`, { file, line });
  }
  return { file, variables, source: text };
}

function lex(file: string, text: string, tags: readonly TemplateTag[]): ReturnType<typeof tokenize> {
  try {
    return tokenize(text, LEX_OPTIONS);
  } catch (error) {
    // The lexer keeps no positions either: the first tag that does not lex on its own is the culprit.
    const culprit = tags.find((tag) => {
      try {
        tokenize(tag.source, LEX_OPTIONS);
        return false;
      } catch {
        return true;
      }
    });
    const line = culprit?.line ?? 1;
    throw syntaxError(file, line, describeError(error));
  }
}

/** The index of the tag holding token `index`: tags and the tokens opening them come in the same order. */
function tagIndexOfToken(tokens: ReturnType<typeof tokenize>, index: number): number {
  let opened = 0;
  for (let i = 0; i <= index && i < tokens.length; i++) {
    const type = tokens[i]?.type;
    if (type === 'OpenStatement' || type === 'OpenExpression' || type === 'Comment') opened += 1;
  }
  return Math.max(0, opened - 1);
}

function syntaxError(file: string, line: number, why: string): InputError {
  return new InputError(`${file}:${line}: template syntax error (${why})`, { file, line });
}
