// A Sub2API gateway's Claude group: Messages web_search / web_fetch at <root>/v1/messages, with the base URL,
// key and headers of the pi provider named by `provider`. The family is shared/messages-family.ts (as for anthropic).

import { createMessagesFamily } from "./shared/messages-family.ts";

const family = createMessagesFamily({ type: "sub2api-claude", gateway: true });

export const { buildSearchRequest, parseSearchResponse, buildFetchRequest, parseFetchResponse, canServe } = family;

export default family.definition;
