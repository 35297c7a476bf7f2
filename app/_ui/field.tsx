"use client";

import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import styles from "./ui.module.css";

type Common = { label: ReactNode; hint?: ReactNode; error?: ReactNode };

/** A labelled text input with its hint and error, wired for screen readers. */
export function Field({ label, hint, error, id, ...props }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const inputId = id ?? auto;
  const described = [hint && `${inputId}-hint`, error && `${inputId}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className={styles.field}>
      <label className={styles.fieldLabel} htmlFor={inputId}>
        {label}
      </label>
      <input id={inputId} className={styles.input} aria-invalid={error ? true : undefined} aria-describedby={described} {...props} />
      {hint && (
        <p id={`${inputId}-hint`} className={styles.fieldHint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${inputId}-error`} className={styles.fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}

export function TextAreaField({ label, hint, id, ...props }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className={styles.field}>
      <label className={styles.fieldLabel} htmlFor={inputId}>
        {label}
      </label>
      <textarea id={inputId} className={styles.input} aria-describedby={hint ? `${inputId}-hint` : undefined} {...props} />
      {hint && (
        <p id={`${inputId}-hint`} className={styles.fieldHint}>
          {hint}
        </p>
      )}
    </div>
  );
}
