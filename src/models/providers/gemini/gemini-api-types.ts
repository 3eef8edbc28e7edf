/**
 * Wire types of the Gemini API's `models/{model}:generateContent` (v1beta), limited to the
 * fields assay sends or reads. Response types are loose: the parser checks every field it reads.
 */

export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  generationConfig?: GeminiGenerationConfig;
}

export type GeminiPart =
  | { text: string }
  | { functionCall: { name: string; args: Record<string, unknown> } }
  | { functionResponse: { name: string; response: Record<string, unknown> } };

export interface GeminiContent {
  /** `user` (also for function responses) or `model`. */
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /** An OpenAPI-subset schema; left out for functions without parameters. */
  parameters?: Record<string, unknown>;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  seed?: number;
  stopSequences?: string[];
  responseMimeType?: 'application/json';
  responseSchema?: Record<string, unknown>;
}

/** A generateContent response as it may arrive: nothing is trusted until checked. */
export interface GeminiResponse {
  candidates?: unknown;
  promptFeedback?: unknown;
  usageMetadata?: unknown;
  modelVersion?: unknown;
  responseId?: unknown;
}

export interface GeminiCandidate {
  content?: unknown;
  finishReason?: unknown;
  safetyRatings?: unknown;
  index?: unknown;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: unknown;
  candidatesTokenCount?: unknown;
  /** Tokens of the model's hidden reasoning ("thinking" models): output tokens too. */
  thoughtsTokenCount?: unknown;
  totalTokenCount?: unknown;
}

/** Google's error envelope: `{"error":{"code":429,"message":"…","status":"RESOURCE_EXHAUSTED","details":[…]}}`. */
export interface GeminiErrorBody {
  error?: { code?: unknown; message?: unknown; status?: unknown; details?: unknown };
}
