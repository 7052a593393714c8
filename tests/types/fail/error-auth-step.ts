// auth.step is one of the OAuth flow's steps, not any string.
import { ToolgateError } from "toolgate";
new ToolgateError("auth-failed", "x", { auth: { step: "somewhere" } });
