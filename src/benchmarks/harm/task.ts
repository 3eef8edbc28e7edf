import path from 'node:path';
import { user, type Sample } from '../../core/index.js';
import { loadHarmResource, SHIPPED_HARM_RESOURCES_DIR, shippedHarmResources, type HarmResource } from '../../datasets/harm/index.js';
import type { Rubric } from '../../judges/judge-request.js';
import { loadTaskRubrics } from '../../judges/task-rubrics.js';
import { aggregateSeverity, awayFromDefect } from '../../metrics/severity.js';
import { isDefect } from '../../metrics/defect-rate.js';
import { findLeak } from '../../scorers/leak-match.js';
import type { PreparedTask, Task, TaskContext } from '../task.js';
import { annotateConversation } from './annotate.js';
import { harmComparison } from './comparison.js';
import { conversationOf, conversationText } from './conversation.js';
import type { ConversationFacts, HarmJudgment } from './judgment.js';
import { HARM_CHARTS } from './charts.js';
import { harmFactsFromStore, harmFactsToStore, harmMetrics } from './metrics.js';
import { HARM_READINGS } from './readings.js';
import { conversationSolver } from './solver.js';
import { HARM_METRICS } from './metric-declarations.js';

/** `assay run harm:<folder>` runs a user's measurement resource; the shipped ones are `harm/<name>`. */
export const HARM_FOLDER_PREFIX = 'harm:';

/** Re-asks of an unreadable simulated-user answer before the conversation ends in error. */
const USER_REASKS = 2;

/**
 * Automated harm measurement (SPEC §5) on one measurement resource: each persona (template ×
 * parameter row) is a sample; the simulated user (`--user-model`) plays it against the system
 * under test (`--model`, with the resource's system prompt); the judge (`--judge`) annotates the
 * whole conversation by the resource's guideline. Metrics: defect rate with its interval per
 * model and template, the severity distribution, the judge's agreement with string-match truth
 * and with the resource's human labels; failures of every kind counted apart.
 */
export function harmTask(folder: string, name: string): Task {
  return {
    name,
    version: '1',
    description: `Harm measurement on the resource ${path.basename(folder)}: simulated users, annotation by its guideline, defect rates.`,
    defaultSettings: { temperature: 0.7 },
    // The seed annotates 5 or 7 times and takes the majority value (rai-harm-measurement-framework, §limitations: reliability).
    defaultJudgeRepeats: 5,
    comparison: harmComparison,
    // `--sample` keeps each persona template's share of the conversations.
    categoryKey: 'template',
    charts: HARM_CHARTS,
    prepare: (ctx) => prepareHarm(folder, name, ctx),
    metrics: (rows, { facts }) => harmMetrics(rows, harmFactsFromStore(facts)),
    judgedReadings: HARM_READINGS,
    metricDeclarations: HARM_METRICS,
  };
}

/** The shipped example resources as tasks, in `assay list`. */
export const shippedHarmTasks: readonly Task[] = shippedHarmResources().map((dir) => harmTask(path.join(SHIPPED_HARM_RESOURCES_DIR, dir), `harm/${dir}`));

/** The task of a user's resource folder, named by its absolute path so a resume from elsewhere finds the same. */
export function harmFolderTask(name: string): Task | undefined {
  if (!name.startsWith(HARM_FOLDER_PREFIX)) return undefined;
  const folder = path.resolve(name.slice(HARM_FOLDER_PREFIX.length));
  return harmTask(folder, `${HARM_FOLDER_PREFIX}${folder}`);
}

async function prepareHarm(folder: string, name: string, ctx: TaskContext): Promise<PreparedTask> {
  const resource = await loadHarmResource(folder, { seed: ctx.seed, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  // The judge compares the answers with the documents the system under test was given, when it had some.
  const documents = resource.contextDocuments.length > 0 ? documentsText(resource) : undefined;
  const loaded = await loadTaskRubrics(
    name,
    [
      { key: 'user', shipped: 'harm/simulated-user', placeholders: ['persona'] },
      documents === undefined
        ? { key: 'annotation', shipped: 'harm/annotate', placeholders: ['guideline', 'conversation'] }
        : { key: 'annotation', shipped: 'harm/annotate-with-documents', placeholders: ['guideline', 'documents', 'conversation'] },
    ],
    ctx.options.rubrics,
  );
  const { guideline, manifest } = resource;
  const annotationSetup = { guideline, task: manifest.task, ...(documents !== undefined ? { documents } : {}) };
  const annotation = loaded.rubrics['annotation'] as Rubric;
  const samples: Sample[] = resource.personas.map((p) => ({
    id: p.id,
    input: [user(p.text)],
    target: null,
    metadata: { harmArea: manifest.harmArea, template: p.templateId, templateFile: p.template, templateSha256: p.templateSha256, parameters: p.parameters, seed: p.seed },
  }));
  const rule = { threshold: guideline.defectThreshold, when: guideline.defectWhen };
  const factsOf = (sample: Sample, transcript: Parameters<typeof conversationOf>[0] | undefined): ConversationFacts => {
    const conversation = conversationOf(transcript ?? []);
    const answers = conversation.utterances.filter((u) => u.speaker === 'assistant').map((u) => u.text);
    return {
      template: String(sample.metadata['template']),
      turns: conversation.turns,
      endedBy: conversation.endedBy,
      ...(manifest.leakCheck ? { leak: findLeak(answers, manifest.leakCheck) !== null } : {}),
      // Every answer empty: the judge still annotates it (an empty answer holds no harm), and the
      // metrics count it apart (`empty_responses`), so a silent endpoint cannot read as a safe one.
      ...(answers.length > 0 && answers.every((a) => a.trim() === '') ? { silent: true as const } : {}),
    };
  };
  return {
    samples: ctx.options.limit ? samples.slice(0, ctx.options.limit) : samples,
    datasetChecksums: { ...prefixed(manifest.name, resource.checksums), ...loaded.checksums },
    promptVersion: 'harm/1',
    solver: conversationSolver({ personas: resource.personas, systemPrompt: systemPromptOf(resource), maxTurns: manifest.maxTurns }, loaded.rubrics['user'] as Rubric, USER_REASKS),
    score: (sample, _output, transcript) => ({ value: null, explanation: 'a conversation is annotated by the judge: run with --judge <model id>', metadata: { conversation: factsOf(sample, transcript) } }),
    async gradeWithJudge(sample, _output, judge, settings, transcript) {
      const facts = factsOf(sample, transcript);
      const conversation = conversationText(conversationOf(transcript ?? []));
      const annotated = await annotateConversation(judge, annotationSetup, conversation, annotation, settings);
      if (annotated.kind === 'error') return { error: { kind: `judge-${annotated.error.kind}`, message: `the judge failed: ${annotated.error.message}` } };
      if (annotated.kind === 'no-verdict') return { score: { value: null, answer: null, explanation: `judge: no verdict — ${annotated.reason}`, metadata: { conversation: facts } } };
      const verdict = aggregateSeverity([...annotated.severities, ...Array<null>(annotated.unreadable).fill(null)], undefined, awayFromDefect(rule));
      const severity = verdict.value as number;
      const judgment: HarmJudgment = {
        severity,
        defect: isDefect(severity, rule),
        repeats: annotated.severities,
        reasonings: annotated.reasonings,
        spread: verdict.spread ?? 0,
        agreement: verdict.agreement ?? 1,
        unreadable: annotated.unreadable,
      };
      const label = guideline.scale.find((l) => l.severity === severity)?.label ?? '';
      return { score: { value: severity, answer: judgment, explanation: `severity ${severity} (${label})${judgment.defect ? ' — defect' : ''}`, metadata: { conversation: facts } } };
    },
    judgeCallsPerSample: ({ repeats, maxParseRetries }) => repeats * (1 + maxParseRetries),
    severityScale: resource.scale,
    isDefectLevel: (level) => isDefect(level, rule),
    metricsFacts: harmFactsToStore({ guideline, leakCheck: manifest.leakCheck !== undefined, ...(resource.humanLabels ? { humanLabels: resource.humanLabels.bySample } : {}) }),
  };
}

/** The system under test's system prompt, its context documents after it, each named. */
function systemPromptOf(resource: HarmResource): string {
  if (resource.contextDocuments.length === 0) return resource.systemPrompt;
  return [resource.systemPrompt, documentsText(resource)].join('\n\n');
}

/** The context documents, each named, as the system under test and the judge read them. */
function documentsText(resource: HarmResource): string {
  return resource.contextDocuments.map((d) => `Document ${d.path}:\n${d.text}`).join('\n\n');
}

/** A resource's checksums under its name, apart from a run's other data files. */
const prefixed = (resourceName: string, checksums: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(checksums).map(([file, sum]) => [`harm/${resourceName}/${file}`, sum]));

