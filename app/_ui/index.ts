// The design system: tokens in tokens.css, components here. Screens use these, not one-off styles.
export { Button, ButtonLink, IconButton } from "./button.tsx";
export { Chip, ChipLink, ChipList, TagLabel } from "./chip.tsx";
export { Badge, Card, EmptyState, Notice, PageHeader } from "./card.tsx";
export { EmailAddress } from "./email-address.tsx";
export { Field, TextAreaField } from "./field.tsx";
export { RowLink, RowList } from "./list.tsx";
export { LocalTime } from "./local-time.tsx";
export { ProgressBar, Spinner } from "./progress.tsx";
export { QrCode } from "./qr-code.tsx";
export { Sheet } from "./sheet.tsx";
export { Tabs } from "./tabs.tsx";
export { ToastProvider, useToast, useToastsAbove, type ToastAbout, type ToastShow } from "./toast.tsx";
