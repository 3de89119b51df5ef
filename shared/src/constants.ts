/** Version of every wire in the product (native link and bridge). Bumped on any breaking change. */
export const PROTOCOL_VERSION = 2;

/** Native-messaging host name registered with the browser. */
export const NATIVE_HOST_NAME = 'com.xipe.uiux_reference';

/** Pinned by the `key` in manifest.json; host manifests name this origin exactly. */
export const EXTENSION_ID = 'gkajpnmdfljgjhdbkbldnadecmdplglg';
export const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}/`;

/** The MCP server's name as agents see it. */
export const MCP_SERVER_NAME = 'x-ipe-app-and-agent-interaction';

/** Chrome kills the port when a host→extension message exceeds 1 MiB. */
export const HOST_TO_EXTENSION_MAX_BYTES = 1024 * 1024;
/** postMessage throws synchronously when an extension→host message exceeds 64 MiB. */
export const EXTENSION_TO_HOST_MAX_BYTES = 64 * 1024 * 1024;
/**
 * Host→extension messages larger than this are split into `chunk` messages. Each chunk carries at
 * most this many UTF-16 units of serialized JSON; re-encoding as a JSON string at worst triples
 * the byte count (3-byte UTF-8 characters), which stays below the 1 MiB cap with room for the
 * envelope.
 */
export const CHUNK_CHARS = 256 * 1024;
/**
 * Extension→host messages with more JSON than this go as `chunk` envelopes of this many characters
 * (a staged full-page PNG can pass the 64 MiB cap). Even if every character were escaped to six
 * bytes, a chunk stays well below the cap.
 */
export const EXTENSION_CHUNK_CHARS = 8 * 1024 * 1024;
/**
 * The longest chunk stream the host reassembles from the extension (characters of JSON): a staged
 * full-page PNG as base64, up to 2560 × 32 000 device px of photo-like content.
 */
export const EXTENSION_STREAM_MAX_CHARS = 320 * 1024 * 1024;
/** Frames on the MCP↔host bridge are capped too, so a hostile client cannot exhaust memory. */
export const BRIDGE_MAX_FRAME_BYTES = 96 * 1024 * 1024;
/**
 * Until a bridge client's hello succeeds, frames are capped far lower (a hello is a few hundred
 * bytes): an unauthenticated peer must not make the host buffer a 96 MiB frame.
 */
export const BRIDGE_HELLO_MAX_FRAME_BYTES = 64 * 1024;
/** Request JSON over this is refused with PAYLOAD_TOO_LARGE (configurable in config.json). */
export const DEFAULT_MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** A bridge client that has not sent a valid hello within this time is disconnected. */
export const HELLO_TIMEOUT_MS = 5_000;
