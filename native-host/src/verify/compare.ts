import type { CompareScores } from '#shared/commands/compare-with-reference.js';
import { type Differences, findDifferences } from './differences.js';
import { matchElements, structureScores } from './match.js';
import type { Elem } from './model.js';
import { compareImages, type Rgba } from './pixels.js';

/**
 * One comparison, pure: the pixels (pixel share, SSIM, diff image) and, when the reference has
 * elements, the structure (matching, scores, differences). A screenshot reference has no
 * elements: its structure scores are null and its differences empty.
 */

export interface ComparisonInput {
  reference: Rgba;
  candidate: Rgba;
  /** CSS px of the region both sides were cut to. */
  size: { width: number; height: number };
  referenceElements: readonly Elem[] | null;
  candidateElements: readonly Elem[];
  /** Marks the end of each step (pixelmatch, ssim, structure), for the report's timings. */
  lap?: (name: string) => void;
}

export interface Comparison {
  scores: CompareScores;
  found: Differences;
  diff: Rgba;
  matched: number;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

export function compare(input: ComparisonInput): Comparison {
  const pixels = compareImages(input.reference, input.candidate, input.lap);
  const base = { pixel: round3(pixels.pixel), ssim: round3(pixels.ssim) };
  if (input.referenceElements === null)
    return {
      scores: { ...base, block_match: null, text: null, position: null, color: null },
      found: { differences: [], consequences: [] },
      diff: pixels.diff,
      matched: 0,
    };
  const diagonal = Math.hypot(input.size.width, input.size.height);
  const { width, height } = input.size;
  // What lies outside the region on either side is not compared.
  const inRegion = (e: Elem) =>
    e.rect.width > 0 &&
    e.rect.height > 0 &&
    e.rect.x < width &&
    e.rect.y < height &&
    e.rect.x + e.rect.width > 0 &&
    e.rect.y + e.rect.height > 0;
  const matching = matchElements(
    input.referenceElements.filter(inRegion),
    input.candidateElements.filter(inRegion),
    diagonal,
  );
  // An unmatched textless box covering the whole region is a backdrop (a page or clone wrapper):
  // its paint is what the pixel scores judge, it is not an element that went or came.
  const backdrop = (e: Elem) =>
    e.text === '' &&
    e.rect.x <= 1 &&
    e.rect.y <= 1 &&
    e.rect.x + e.rect.width >= width - 1 &&
    e.rect.y + e.rect.height >= height - 1;
  matching.missing = matching.missing.filter((x) => !backdrop(x.ref));
  matching.extra = matching.extra.filter((x) => !backdrop(x.cand));
  const s = structureScores(matching, diagonal);
  const found = findDifferences(matching, input.candidateElements);
  input.lap?.('structure');
  return {
    scores: {
      ...base,
      block_match: round3(s.block_match),
      text: round3(s.text),
      position: round3(s.position),
      color: round3(s.color),
    },
    found,
    diff: pixels.diff,
    matched: matching.pairs.length,
  };
}
