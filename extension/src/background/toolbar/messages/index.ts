import type { ToolbarRequestType } from '#shared/toolbar-messages.js';
import type { ToolbarMessageHandler } from '../types.js';
import { addColor } from './add-color.js';
import { captureElement } from './capture-element.js';
import { clear } from './clear.js';
import { deepCapture } from './deep-capture.js';
import { fullPageBand, fullPageBegin, fullPageEnd, fullPageSettle } from './full-page.js';
import { getCrop } from './get-crop.js';
import { getState } from './get-state.js';
import { listIdeas } from './list-ideas.js';
import { panelSpot } from './panel-spot.js';
import { preview } from './preview.js';
import { removeItem } from './remove-item.js';
import { restFrame } from './rest-frame.js';
import { sample } from './sample.js';
import { save } from './save.js';
import { turn } from './turn.js';
import { updateItem } from './update-item.js';
import { areaImage, compare, verifyAreas } from './verify.js';

/**
 * One handler per toolbar message, one file each (full-page.ts keeps the four steps of a stitch
 * job together). The mapped type makes a missing or extra entry a compile
 * error, as background/handlers/ does for the bridge's commands.
 */
export const TOOLBAR_HANDLERS: { readonly [T in ToolbarRequestType]: ToolbarMessageHandler<T> } = {
  'xipe-toolbar:get_state': getState,
  'xipe-toolbar:rest_frame': restFrame,
  'xipe-toolbar:preview': preview,
  'xipe-toolbar:sample': sample,
  'xipe-toolbar:capture_element': captureElement,
  'xipe-toolbar:add_color': addColor,
  'xipe-toolbar:update_item': updateItem,
  'xipe-toolbar:deep_capture': deepCapture,
  'xipe-toolbar:remove_item': removeItem,
  'xipe-toolbar:get_crop': getCrop,
  'xipe-toolbar:full_page_begin': fullPageBegin,
  'xipe-toolbar:full_page_band': fullPageBand,
  'xipe-toolbar:full_page_settle': fullPageSettle,
  'xipe-toolbar:full_page_end': fullPageEnd,
  'xipe-toolbar:panel_spot': panelSpot,
  'xipe-toolbar:turn': turn,
  'xipe-toolbar:list_ideas': listIdeas,
  'xipe-toolbar:save': save,
  'xipe-toolbar:clear': clear,
  'xipe-toolbar:verify_areas': verifyAreas,
  'xipe-toolbar:area_image': areaImage,
  'xipe-toolbar:compare': compare,
};
