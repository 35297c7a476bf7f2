"use client";

import { Headphones, HardDrive } from "lucide-react";
import { useEffect, useState } from "react";
import { getSettings, type Settings } from "@/app/_lib/api.ts";
import { BUDGET_CHOICES_MB, keptAudio, offlineAudioBudgetMb, setOfflineAudioBudgetMb, syncOfflineAudio } from "@/app/_lib/notes/offline-audio.ts";
import { isKeptOnPhone, keepRecordingsOnPhone, minutesOfSpaceLeft } from "@/app/_lib/recording/storage.ts";
import { Button, Card } from "@/app/_ui/index.ts";
import styles from "./phone-storage.module.css";

type State = {
  kept: boolean | null;
  minutes: number | null;
  budgetMb: number;
  audio: { notes: number; bytes: number };
  /** The room this account's recordings take on the server (null: offline, not known now). */
  server: Settings["audio_storage"] | null;
};

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toLocaleString(undefined, { maximumFractionDigits: bytes < 10 * 1024 * 1024 ? 1 : 0 })} MB`;

/**
 * Settings → This phone: whether the browser keeps recordings that wait to upload, the space left,
 * and how much room the newest notes' recordings may take for listening offline.
 */
export function PhoneStorage() {
  const [state, setState] = useState<State | null>(null);
  const read = async () => {
    const server = getSettings().then((s) => s.audio_storage, () => null);
    setState({ kept: await isKeptOnPhone(), minutes: await minutesOfSpaceLeft(), budgetMb: offlineAudioBudgetMb(), audio: await keptAudio(), server: await server });
  };
  useEffect(() => {
    // The browser's answers arrive asynchronously; reading them on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void read();
  }, []);
  if (!state) return null;

  async function changeBudget(mb: number) {
    setOfflineAudioBudgetMb(mb);
    setState((s) => (s ? { ...s, budgetMb: mb } : s));
    await syncOfflineAudio();
    await read();
  }

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
      {state.server && <ServerStorage usage={state.server} />}
      <div className={styles.offline}>
        <label htmlFor="offline-audio-budget" className={styles.label}>
          <Headphones size={18} aria-hidden="true" /> Listen offline
        </label>
        <p className={styles.hint} data-testid="offline-audio">
          {state.budgetMb === 0
            ? "Only recordings you played are kept for listening offline."
            : `Your newest notes' recordings are kept on this phone, up to ${state.budgetMb} MB, so they play without a connection.`}{" "}
          Kept now: {state.audio.notes} {state.audio.notes === 1 ? "recording" : "recordings"}, {megabytes(state.audio.bytes)}.
        </p>
        <select id="offline-audio-budget" className={styles.select} value={state.budgetMb} onChange={(e) => void changeBudget(Number(e.target.value))}>
          {BUDGET_CHOICES_MB.map((mb) => (
            <option key={mb} value={mb}>
              {mb === 0 ? "Only what I played" : `Up to ${mb} MB (about ${Math.round(mb / 9)} hours)`}
            </option>
          ))}
        </select>
      </div>
    </Card>
  );
}

/** The room the account's recordings take on the server, and its quota when the server sets one. */
function ServerStorage({ usage: { used_bytes: used, quota_bytes: quota } }: { usage: Settings["audio_storage"] }) {
  const full = quota !== null && used >= quota;
  return (
    <p className={styles.hint} data-testid="server-audio">
      On the server, your recordings take {megabytes(used)}
      {quota === null ? "." : ` of the ${megabytes(quota)} they may take.`}
      {full && " That is all the room there is: new recordings are refused until you delete notes you no longer need."}
    </p>
  );
}
