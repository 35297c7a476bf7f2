"use client";

import { HardDrive } from "lucide-react";
import { useEffect, useState } from "react";
import { isKeptOnPhone, keepRecordingsOnPhone, minutesOfSpaceLeft } from "@/app/_lib/storage.ts";
import { Button, Card } from "@/app/_ui/index.ts";

type State = { kept: boolean | null; minutes: number | null };

/** Settings → This phone: whether the browser keeps recordings that wait to upload, and the space left. */
export function PhoneStorage() {
  const [state, setState] = useState<State | null>(null);
  const read = async () => setState({ kept: await isKeptOnPhone(), minutes: await minutesOfSpaceLeft() });
  useEffect(() => {
    // The browser's answers arrive asynchronously; reading them on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void read();
  }, []);
  if (!state) return null;
  return (
    <Card>
      <p data-testid="phone-storage">
        <HardDrive size={18} aria-hidden="true" />{" "}
        {state.kept === true
          ? "Recordings waiting to upload are kept on this phone until they are sent."
          : state.kept === false
            ? "This browser may clear recordings that wait to upload when the phone runs short of space. Installing Voicedraft (Add to Home screen) usually lets it keep them."
            : "This browser does not say whether it keeps recordings that wait to upload; they are sent as soon as there is a connection."}
        {state.minutes !== null && ` Room for about ${state.minutes.toLocaleString()} minutes of recording.`}
      </p>
      {state.kept === false && (
        <Button variant="secondary" onClick={() => void keepRecordingsOnPhone().then(read)}>
          Ask to keep them
        </Button>
      )}
    </Card>
  );
}
