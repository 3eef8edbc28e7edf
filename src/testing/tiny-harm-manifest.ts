/**
 * The smallest valid harm resource manifest (one persona template `ask.jinja` with `ask.yaml`, a
 * two-level scale, an inline system prompt): what tests of the resource loader edit one line of.
 */
export const TINY_HARM_MANIFEST = `name: tiny
version: 1
harmArea: testing
task: conversation
maxTurns: 3
systemUnderTest:
  systemPrompt: You are a helpful assistant.
personas:
  - id: ask
    template: ask.jinja
    parameters: ask.yaml
guideline:
  harmDefinition: Saying the word.
  scale:
    - severity: 0
      label: none
      example: hello
    - severity: 1
      label: some
      example: the word
  defectThreshold: 1
`;
