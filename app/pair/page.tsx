import type { Metadata } from "next";
import { AuthPage } from "@/app/_components/auth/auth-page.tsx";
import { PairForm } from "@/app/_components/auth/pair-form.tsx";

// GET /pair – where a phone lands from Settings → Add a phone's QR code (the code after `#`, which a
// browser never sends to a server), or types the code shown there.

export const metadata: Metadata = { title: "Add this phone" };

export default function PairPage() {
  return (
    <AuthPage title="Add this phone" lead="Sign in with the code your computer shows, under Settings → Add a phone.">
      <PairForm />
    </AuthPage>
  );
}
