/**
 * A whisper.cpp ggml model small enough to write in a test: the real file layout (magic, hyper-
 * parameters, mel filters, vocabulary, every tensor the loader asks for) with all weights zero.
 * It recognises nothing, but whisper.cpp loads and runs it like any model, so the engine's whole
 * path (child process, model loading, whisper_full, segment delivery, times) runs here without a
 * download. With zero weights every logit is equal and greedy decoding writes one " hello".
 * The layout follows whisper_model_load in whisper.cpp's src/whisper.cpp.
 */
import { writeFile } from 'node:fs/promises';

const N_VOCAB = 51865; // multilingual: language detection works
const STATE = 64;
const AUDIO_CTX = 1500;
const TEXT_CTX = 448;
const N_MELS = 80;
const F32 = 0;
const F16 = 1;

export async function writeTinyWhisperModel(path: string): Promise<void> {
  const parts: Buffer[] = [];
  const int32 = (...values: number[]) => {
    const buffer = Buffer.alloc(4 * values.length);
    values.forEach((v, i) => buffer.writeInt32LE(v, 4 * i));
    parts.push(buffer);
  };
  parts.push(Buffer.from('lmgg', 'latin1'));
  // n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer, n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype (1: f16)
  int32(N_VOCAB, AUDIO_CTX, STATE, 1, 1, TEXT_CTX, STATE, 1, 1, N_MELS, F16);
  int32(N_MELS, 201);
  parts.push(Buffer.alloc(N_MELS * 201 * 4));
  // The 50257 text tokens; whisper.cpp adds the special ones. " " must exist (suppress_blank looks it up).
  const words = [' ', ' hello', ' world'];
  int32(50257);
  for (let i = 0; i < 50257; i++) {
    const word = Buffer.from(words[i % words.length]);
    int32(word.length);
    parts.push(word);
  }
  const tensor = (name: string, type: number, ...shape: number[]) => {
    int32(shape.length, Buffer.byteLength(name), type, ...shape);
    parts.push(Buffer.from(name));
    parts.push(Buffer.alloc(shape.reduce((a, b) => a * b, 1) * (type === F32 ? 4 : 2)));
  };
  const block = (prefix: string, attentions: string[]) => {
    tensor(`${prefix}mlp_ln.weight`, F32, STATE);
    tensor(`${prefix}mlp_ln.bias`, F32, STATE);
    tensor(`${prefix}mlp.0.weight`, F16, STATE, 4 * STATE);
    tensor(`${prefix}mlp.0.bias`, F32, 4 * STATE);
    tensor(`${prefix}mlp.2.weight`, F16, 4 * STATE, STATE);
    tensor(`${prefix}mlp.2.bias`, F32, STATE);
    for (const attention of attentions) {
      tensor(`${prefix}${attention}_ln.weight`, F32, STATE);
      tensor(`${prefix}${attention}_ln.bias`, F32, STATE);
      tensor(`${prefix}${attention}.query.weight`, F16, STATE, STATE);
      tensor(`${prefix}${attention}.query.bias`, F32, STATE);
      tensor(`${prefix}${attention}.key.weight`, F16, STATE, STATE);
      tensor(`${prefix}${attention}.value.weight`, F16, STATE, STATE);
      tensor(`${prefix}${attention}.value.bias`, F32, STATE);
      tensor(`${prefix}${attention}.out.weight`, F16, STATE, STATE);
      tensor(`${prefix}${attention}.out.bias`, F32, STATE);
    }
  };
  tensor('encoder.positional_embedding', F32, STATE, AUDIO_CTX);
  tensor('encoder.conv1.weight', F16, 3, N_MELS, STATE);
  tensor('encoder.conv1.bias', F32, 1, STATE);
  tensor('encoder.conv2.weight', F16, 3, STATE, STATE);
  tensor('encoder.conv2.bias', F32, 1, STATE);
  tensor('encoder.ln_post.weight', F32, STATE);
  tensor('encoder.ln_post.bias', F32, STATE);
  block('encoder.blocks.0.', ['attn']);
  tensor('decoder.positional_embedding', F32, STATE, TEXT_CTX);
  tensor('decoder.token_embedding.weight', F16, STATE, N_VOCAB);
  tensor('decoder.ln.weight', F32, STATE);
  tensor('decoder.ln.bias', F32, STATE);
  block('decoder.blocks.0.', ['attn', 'cross_attn']);
  await writeFile(path, Buffer.concat(parts));
}
