"use client";

import type { Platform } from "@/lib/channels/platforms.ts";
import { platformName } from "@/app/_components/posts/platforms.ts";
import styles from "./posts.module.css";

type Props = { id: string; platforms: readonly Platform[] } & (
  | { name: string; defaultValue: Platform; value?: never; onChange?: never }
  | { value: Platform; onChange(platform: Platform): void; name?: never; defaultValue?: never }
);

/** The labelled platform picker of adding a channel and of editing one. */
export function PlatformSelect({ id, platforms, ...control }: Props) {
  const onChange = control.onChange;
  return (
    <div className={styles.fieldCol}>
      <label htmlFor={id}>Platform</label>
      <select
        id={id}
        name={control.name}
        defaultValue={control.defaultValue}
        value={control.value}
        onChange={onChange && ((e) => onChange(e.target.value as Platform))}
      >
        {platforms.map((p) => (
          <option key={p} value={p}>
            {platformName(p)}
          </option>
        ))}
      </select>
    </div>
  );
}
