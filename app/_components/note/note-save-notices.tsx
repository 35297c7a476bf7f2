"use client";

import { CloudOff, TriangleAlert } from "lucide-react";
import type { SaveState } from "@/app/_lib/notes/use-autosave.ts";
import { Button, LocalTime, Notice } from "@/app/_ui/index.ts";

/**
 * Above the note's text, the first thing seen on coming back to it: this phone's offline copy, an
 * edit waiting for a connection, or an edit that met another device's (with the two ways out).
 */
export function NoteSaveNotices({
  save,
  deviceCopyAt,
  onKeepMine,
  onUseOther,
}: {
  save: SaveState;
  deviceCopyAt: number | null;
  onKeepMine: () => void;
  onUseOther: () => void;
}) {
  return (
    <>
      {deviceCopyAt !== null && save !== "offline" && (
        <Notice tone="warning" icon={<CloudOff size={18} aria-hidden="true" />} data-testid="device-copy">
          Offline copy from <LocalTime iso={new Date(deviceCopyAt).toISOString()} />. Fixing words and making posts need a connection.
        </Notice>
      )}
      {save === "offline" && (
        <Notice tone="warning" icon={<CloudOff size={18} aria-hidden="true" />}>
          Saved on this phone: no connection. Your text is sent when you are back online.
        </Notice>
      )}
      {save === "conflict" && (
        <Notice tone="warning" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert">
          <p>This note was changed on another device while you edited it.</p>
          <div className="row">
            <Button variant="secondary" onClick={onKeepMine}>
              Keep my version
            </Button>
            <Button variant="ghost" onClick={onUseOther}>
              Use the other version
            </Button>
          </div>
        </Notice>
      )}
    </>
  );
}
