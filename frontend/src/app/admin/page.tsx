import { redirect } from "next/navigation";

/** /admin goes to the sign-in page (SPEC §2); signed-in admins go on from there. */
export default function AdminIndex() {
  redirect("/admin/login");
}
