import { platformLabel } from "@/lib/channels/platforms.ts";

// Platform ids as people write them: the label of lib/channels/platforms.ts's table.
export const platformName = (id: string) => platformLabel(id);
