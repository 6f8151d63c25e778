import { LoginForm } from "@/components/admin/login-form";

export default function AdminLoginPage() {
  return <LoginForm />;
}
