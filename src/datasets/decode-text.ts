const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes a text file's bytes: UTF-8 (a leading byte-order mark dropped), or — when the bytes are
 * not valid UTF-8 — Latin-1, which decodes any bytes. Latin-1 is the encoding such files in the
 * wild most often are (the BBC set's `sport/199.txt` is one); the choice is returned so the caller
 * records it rather than hides it.
 */
export function decodeText(bytes: Uint8Array): { readonly text: string; readonly encoding: 'utf-8' | 'latin1' } {
  try {
    return { text: UTF8.decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: Buffer.from(bytes).toString('latin1'), encoding: 'latin1' };
  }
}
