/** What the console's own server tells the page at run time (GET /config.json): which identity provider to use. */
export interface ConsoleSettings {
  issuer: string;
  client_id: string;
  scope: string;
  redirect_path: string;
}

export async function loadSettings(): Promise<ConsoleSettings> {
  const response = await fetch('/config.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`the console's settings did not load (${response.status})`);
  return (await response.json()) as ConsoleSettings;
}
