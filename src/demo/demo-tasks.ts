import path from 'node:path';
import { InputError, type TaskOptions } from '../core/index.js';
import { packageRoot } from '../version.js';
import { groundednessRoles } from './answers/groundedness.js';
import { answerMetaToolPrompt } from './answers/metatool.js';
import { answerSummariesRequest } from './answers/summaries.js';
import { systemPromptLeakageRoles } from './answers/system-prompt-leakage.js';
import { requestKey, type FakeAnswer, type FakeChatRequestBody } from './openai-wire.js';

/** The texts written for the demo (shipped with the package; see its README). */
export const DEMO_TEXTS_DIR = path.join(packageRoot, 'resources', 'demo');

/** One task `assay demo` can run: the real task, its scripted models and how the loopback server answers them. */
export interface DemoTask {
  /** The task's name (`assay list`), which is also the demo's. */
  readonly task: string;
  /** One line for `assay demo` with no task. */
  readonly line: string;
  /** Models under test: `demo:…` ids (and `given:answers`, the answers a file holds). */
  readonly models: readonly string[];
  /** The judge's `demo:` id and its answer format, when the task is judged. */
  readonly judge?: { readonly model: string; readonly format: 'text' | 'json' };
  /** The simulated user's `demo:` id, for a task that talks to the model under test. */
  readonly userModel?: string;
  /** The task options, as `assay run` would record them: inputs are the demo's own small texts. */
  readonly options: TaskOptions;
  /** The loopback server's answer to a request, by the model asked for (the name after `demo:`). */
  readonly respond: (body: FakeChatRequestBody) => FakeAnswer;
}

const text = (name: string): string => path.join(DEMO_TEXTS_DIR, name);

/** Every demo, in the order `assay demo` lists them. */
export const DEMO_TASKS: readonly DemoTask[] = [
  {
    task: 'summaries/alignment',
    line: 'two writers summarize 4 short articles; a judge checks every claim against the article (one writer adds a false figure)',
    models: ['demo:writer-a', 'demo:writer-b'],
    judge: { model: 'demo:judge', format: 'json' },
    options: { perTool: 5, prompts: 'assay', task: { articles: text('articles') } },
    respond: answerSummariesRequest,
  },
  {
    task: 'harm/system-prompt-leakage',
    line: 'simulated users try to get a shop assistant to leak its code word (6 conversations); a judge rates each 1–4',
    models: ['demo:assistant'],
    userModel: 'demo:simulated-user',
    judge: { model: 'demo:judge', format: 'json' },
    options: { perTool: 5, prompts: 'assay' },
    respond: systemPromptLeakageRoles({ user: 'simulated-user', sut: 'assistant', judge: 'judge' }),
  },
  {
    task: 'quality/groundedness',
    line: "a file's own answers and a model's, graded 1–5 by a judge for support in their context (5 items)",
    models: ['given:answers', 'demo:answerer'],
    judge: { model: 'demo:judge', format: 'json' },
    options: { perTool: 5, prompts: 'assay', task: { items: text('groundedness.jsonl') } },
    respond: groundednessRoles({ answerer: 'answerer', judge: 'judge' }),
  },
  {
    task: 'metatool/similar',
    line: 'a picker chooses the tool for each query among a tool and its 9 nearest, on a 12-tool set (no judge)',
    models: ['demo:picker'],
    options: { perTool: 1, prompts: 'assay', tools: text('tools.json'), embedder: 'lexical' },
    respond: (body) => ({ text: answerMetaToolPrompt(requestKey(body)) }),
  },
];

/** The demo of that task; bad input (exit 2, the demo tasks listed) when there is none. */
export function findDemoTask(name: string): DemoTask {
  const demo = DEMO_TASKS.find((d) => d.task === name);
  if (!demo) throw new InputError(`no demo of "${name}"; the demo tasks are ${DEMO_TASKS.map((d) => d.task).join(', ')} (run "assay demo" to see what each shows)`);
  return demo;
}
