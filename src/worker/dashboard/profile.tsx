/**
 * The profile pages, always for the signed-in account's customer profile:
 * - GET  /dashboard/profile   the profile as a form
 * - POST /dashboard/profile   save it (CSRF-checked by the dashboard's middleware), then 303 back;
 *   invalid fields are 400 with each error by its field; a profile changed since the form was
 *   shown (another tab, an app) is 409 and nothing is saved.
 */
import type { Context, Hono } from "hono";
import { accountObject } from "../auth/accounts";
import { DASHBOARD_PATHS, signedInSession, type DashboardEnv } from "./context";
import { renderDashboard, type PageStatus } from "./page";
import {
  formValuesOf,
  profileFormValues,
  profileOf,
  type ProfileFormErrors,
  type ProfileFormValues,
} from "./profile-form";
import { ProfilePage, VERSION_FIELD } from "./profile-page";

const customerOf = (c: Context<DashboardEnv>) => accountObject(c.env, c.var.account.id);

async function showProfile(c: Context<DashboardEnv>) {
  const current = await customerOf(c).customer();
  if (!current.ok) throw new Error(current.detail);
  const saved = c.req.query("saved") === "1";
  return page(
    c,
    200,
    current.value.version,
    profileFormValues(current.value.customer),
    {},
    saved ? "Profile saved." : undefined,
  );
}

async function saveProfile(c: Context<DashboardEnv>) {
  const form = await c.req.parseBody();
  const values = formValuesOf(form);
  const version = Number(form[VERSION_FIELD]);
  const checked = profileOf(values);
  if (!checked.ok)
    return page(c, 400, version, values, checked.errors, "Nothing was saved: fix the fields marked below.", "error");
  const saved = await customerOf(c).replaceCustomer(checked.fields, Number.isSafeInteger(version) ? version : -1);
  if (saved.ok) return c.redirect(`${DASHBOARD_PATHS.profile}?saved=1`, 303);
  const current = await customerOf(c).customer();
  if (!current.ok) throw new Error(current.detail);
  return page(
    c,
    409,
    current.value.version,
    profileFormValues(current.value.customer),
    {},
    "Nothing was saved: your profile changed since this page was opened (in another tab or by an app). This is the profile now; make your change again.",
    "error",
  );
}

function page(
  c: Context<DashboardEnv>,
  status: PageStatus,
  version: number,
  values: ProfileFormValues,
  errors: ProfileFormErrors,
  message?: string,
  kind: "success" | "error" = "success",
) {
  const notice = message ? { kind, text: message } : undefined;
  return renderDashboard(
    c,
    <ProfilePage
      account={c.var.account}
      session={signedInSession(c)}
      version={version}
      values={values}
      errors={errors}
      notice={notice}
    />,
    status,
  );
}

export function registerProfilePages(dashboard: Hono<DashboardEnv>): void {
  dashboard.get(DASHBOARD_PATHS.profile, showProfile);
  dashboard.post(DASHBOARD_PATHS.profile, saveProfile);
}
