/**
 * Plausible wording for the findings of each signal code (catalog spec, "Observed signal codes by
 * stage"), used to make sample and generated profiles. `{product}` is replaced by the product name.
 */
export interface SignalTexts {
  condition: string;
  pass: readonly string[];
  constrained: readonly string[];
  context: readonly string[];
}

export const SIGNAL_TEXTS: Record<string, SignalTexts> = {
  service_discovery: {
    condition:
      "Can an agent discover the service, its capabilities and a machine-readable API description without human help?",
    pass: [
      "An OpenAPI 3.1 description is published at a stable, documented URL and linked from the developer portal.",
      "The API description, changelog and status page are reachable without signing in.",
    ],
    constrained: [
      "The API reference is only visible after an interactive sign-in; no public machine-readable description.",
      "Capabilities are described in marketing pages only; the API description is a PDF sent on request.",
    ],
    context: [
      "{product} serves its API description from a versioned path; the probe fetched it over HTTPS, parsed it and resolved every $ref.",
      "The probe followed the developer portal's links from the home page; the reference pages render client-side — the raw description was not found.",
    ],
  },
  access_entrypoint_stability: {
    condition: "Is the sign-up entry point stable and usable by an automated client?",
    pass: [
      "Self-service sign-up is a documented, stable endpoint with no bot challenge for API clients.",
      "Account creation is an API call with a documented request schema and stable error codes.",
    ],
    constrained: [
      "Sign-up sits behind an interactive CAPTCHA that an automated client cannot pass.",
      "The sign-up form changed markup twice in the test window and requires a phone call to activate.",
    ],
    context: [
      "Three sign-up attempts from the test harness over seven days reached the same endpoint; {product} answered each with a documented 201.",
      "The probe reached {product}'s sign-up page; a challenge page was served to the headless client on every attempt.",
    ],
  },
  delegated_identity_access: {
    condition: "Can an agent act for a customer through delegated identity (OAuth 2.0 or an equivalent grant)?",
    pass: [
      "OAuth 2.0 authorization code with PKCE lets an agent act on a customer's behalf with scoped, revocable tokens.",
      "Customers can grant an agent scoped access through a documented consent screen; tokens expire and rotate.",
    ],
    constrained: [
      "Only the account owner's password is accepted; there is no delegated, scoped access for agents.",
      "Delegated access exists but tokens never expire and cannot be scoped below full account access.",
    ],
    context: [
      "{product} publishes RFC 8414 server metadata; the probe completed an authorization-code flow with S256 PKCE and a refresh-token rotation.",
      "The probe looked for an authorization server and a consent flow; {product} documents API keys only, issued to the account owner.",
    ],
  },
  commitment_disclosure: {
    condition: "Are prices, commitments and cancellation terms disclosed before purchase?",
    pass: [
      "Unit prices, minimum terms and cancellation rules are published and machine-readable before checkout.",
      "The pricing page lists every plan's price, overage rate and notice period in plain terms.",
    ],
    constrained: [
      'Prices above the free tier are "contact sales"; commitments are only disclosed in an order form.',
      "The annual commitment and auto-renewal terms appear only after payment details are entered.",
    ],
    context: [
      "The probe read {product}'s pricing page and terms; every figure matched the invoice preview of the test purchase.",
      "The probe compared {product}'s pricing page with the checkout flow; the renewal clause was first shown on the final step.",
    ],
  },
  self_service_purchase: {
    condition: "Can a paid plan be bought without talking to sales?",
    pass: [
      "Paid plans can be bought by API or in a self-service checkout with a card; no sales call needed.",
      "Upgrading from the free tier is one documented API call once a payment method is attached.",
    ],
    constrained: [
      "Paid plans require a sales conversation and a signed order form.",
      "Checkout requires a manual review by the vendor that took two business days in the test.",
    ],
    context: [
      "The test account upgraded to the smallest paid plan of {product} with a test card; the receipt arrived by webhook.",
      "The probe requested a paid plan of {product}; the request was routed to a sales inbox and answered by a person.",
    ],
  },
  provisioning_operability: {
    condition: "Can resources be provisioned through an API rather than a console?",
    pass: [
      "Every resource the product sells can be created, listed and deleted through the public API.",
      "Provisioning is covered by the API and an official Terraform provider with the same semantics.",
    ],
    constrained: [
      "Some resources can only be created in the web console; the API covers reads only.",
      "Provisioning requests go through a support ticket; the API cannot create new instances.",
    ],
    context: [
      "The probe created, listed and deleted a resource in {product} through the API; each call returned the documented status.",
      "The probe looked for create endpoints in {product}'s API description; only read endpoints were documented.",
    ],
  },
  provisioning_completion: {
    condition: "Does provisioning report completion in a way an agent can observe?",
    pass: [
      "Long-running provisioning returns an operation resource with a pollable status and a completion webhook.",
      "Provisioning completes synchronously within the request, with the created resource in the response.",
    ],
    constrained: [
      "Provisioning completion is only announced by e-mail; no status endpoint or webhook is documented.",
      'The operation status endpoint reports "done" before the resource is usable; completion cannot be observed reliably.',
    ],
    context: [
      'Across five runs, {product}\'s operation resource reached "succeeded" in under a minute and the webhook arrived within seconds.',
      "The probe polled {product} for forty minutes after provisioning; the resource became usable without any observable signal.",
    ],
  },
  access_material_delivery: {
    condition: "Are credentials for the provisioned resource delivered programmatically?",
    pass: [
      "API keys for new resources are returned once in the creation response and can be rotated by API.",
      "Credentials are issued through the API with scopes and expiry; nothing is sent by e-mail.",
    ],
    constrained: [
      "Credentials are e-mailed as a plain-text attachment; no API returns them.",
      "Keys must be copied from the console by hand; the API cannot create or rotate them.",
    ],
    context: [
      "The probe created and rotated a key for a resource of {product} through the API; the old key stopped working within a minute.",
      "The probe provisioned a resource of {product} and waited for credentials; they arrived in a mailbox, not through the API.",
    ],
  },
  failure_contract: {
    condition: "Are errors, rate limits and outages described in a machine-readable contract?",
    pass: [
      "Errors use RFC 9457 problem details with stable codes; rate limits come with Retry-After and documented quotas.",
      "Every error has a documented code; 429 responses carry Retry-After and a status API reports incidents.",
    ],
    constrained: [
      "Errors are free-text HTML pages; rate limiting is undocumented and returns 500 instead of 429.",
      "Error codes are undocumented and change between releases; there is no Retry-After on throttled requests.",
    ],
    context: [
      "The probe triggered validation, auth and rate-limit errors in {product}; each matched its documented code and shape.",
      "The probe sent 200 requests per minute to {product}; throttled requests failed with generic errors and no retry hint.",
    ],
  },
};

export const GRADE_DERIVATION = {
  label: "Agent readiness report card",
  explanation:
    "Grades A through C count stages in the limited state; grades D and F reflect blocked stages by lifecycle severity.",
  coverage_rule:
    "Coverage is complete only when every graded signal has supported, fresh, non-conflicting evidence; barrier and informational signals do not change coverage; only fresh, supported barrier values that passed their admission evidence rule take part in stage outcomes.",
  outcome_rule:
    "Each stage takes its worst graded signal or verified barrier; a fresh, supported mandatory barrier that passed admission can block the stage; incomplete or stale barrier evidence is context only; the overall grade derives from the five stage states.",
} as const;
