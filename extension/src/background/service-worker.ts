import type { ExtensionHello } from '#shared/index.js';
import { CAPTURE_QUEUE_EVENT, NATIVE_HOST_NAME, PROTOCOL_VERSION } from '#shared/index.js';
import { browser, userScriptsApi } from '../platform/browser.js';
import { handleActionClick } from './action.js';
import { browserInfo } from './browser-info.js';
import { captureTurns, watchQueue } from './capture/turns.js';
import { dispatch } from './dispatcher.js';
import { HANDLERS } from './handlers/index.js';
import { NativeHostLink } from './native-port.js';
import { tabsChanged, unmarkOwnWindow } from './tabs.js';
import { registerToolbar } from './toolbar/index.js';

/**
 * MV3 service worker. Chrome stops it after ~30 s idle unless a native port is open, and nothing
 * outside the browser can wake it: every listener is registered synchronously at the top level,
 * and each one (start-up, install, tab activation/update, the 30 s heartbeat alarm, a toolbar
 * click) makes sure the native link is up.
 */

export const HEARTBEAT_ALARM = 'heartbeat';

async function buildHello(): Promise<ExtensionHello> {
  return {
    type: 'hello',
    role: 'extension',
    protocol: PROTOCOL_VERSION,
    extension: {
      id: browser.runtime.id,
      version: browser.runtime.getManifest().version,
      user_scripts_allowed: userScriptsApi() !== null,
      browser: await browserInfo(),
    },
  };
}

const link = new NativeHostLink({
  hostName: NATIVE_HOST_NAME,
  hello: buildHello,
  // Requests arrive once the port is up, after the toolbar below is registered.
  onRequest: (request, scope) =>
    dispatch(request, HANDLERS, { browserInfo, staged: toolbar.staged, ...scope }),
});
const toolbar = registerToolbar(link);
// The host keeps the capture queue as last said, for bridge_status.
watchQueue(() =>
  link.emit(CAPTURE_QUEUE_EVENT, { jobs: captureTurns.list().map(({ id: _, ...job }) => job) }),
);

function ensureHeartbeat(): void {
  // periodInMinutes 0.5 is Chrome's minimum; re-creating an existing alarm would reset its phase.
  void browser.alarms.get(HEARTBEAT_ALARM).then((alarm) => {
    if (alarm === undefined) void browser.alarms.create(HEARTBEAT_ALARM, { periodInMinutes: 0.5 });
  });
}

browser.runtime.onStartup.addListener(() => link.ensureConnected('startup'));
browser.runtime.onInstalled.addListener(() => link.ensureConnected('installed'));
// Anything that can change a tab's id, URL, title or place invalidates findTarget's snapshot.
for (const event of [
  browser.tabs.onCreated,
  browser.tabs.onUpdated,
  browser.tabs.onRemoved,
  browser.tabs.onReplaced,
  browser.tabs.onMoved,
  browser.tabs.onAttached,
  browser.tabs.onDetached,
  browser.windows.onCreated,
  browser.windows.onRemoved,
  browser.tabs.onActivated,
  browser.windows.onFocusChanged,
] as const) {
  event.addListener(tabsChanged);
}
browser.windows.onRemoved.addListener(unmarkOwnWindow);
browser.tabs.onActivated.addListener(() => link.ensureConnected('tab activated'));
browser.tabs.onUpdated.addListener(() => link.ensureConnected('tab updated'));
browser.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === HEARTBEAT_ALARM) void link.heartbeat();
});
browser.action.onClicked.addListener((tab) => {
  link.ensureConnected('action clicked');
  void handleActionClick(tab);
});

ensureHeartbeat();
// The worker also (re)starts for events not listed above; connect whenever it runs.
link.ensureConnected('worker started');
