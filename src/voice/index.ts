/*
 * The voice feature's door: what another folder of src/ may use of it. Nothing else of
 * src/voice/ is imported from outside (test/platform/imports.test.ts).
 */
export { CLIP_TYPES, MAX_CLIP_BYTES, REQUIRED_CLIPS, clipTypeOf, isClipName, listClips, looksLike, readClip, removeClips, storeClips, type ClipFile, type ClipType } from './service'
