import fs from 'node:fs';
import path from 'node:path';
import { ReadinessCheck } from '@agentwatch/http';
import { Injectable } from '@nestjs/common';
import { ConsoleServerOptions } from './console-server.options';

/** /ready: the console has something to serve (its build may come after the server started). */
@Injectable()
export class WebBuildHealth implements ReadinessCheck {
  readonly name = 'web';

  constructor(private readonly options: ConsoleServerOptions) {}

  async check(): Promise<void> {
    const index = path.join(this.options.webDir, 'index.html');
    try {
      await fs.promises.access(index, fs.constants.R_OK);
    } catch {
      throw new Error(`console not built: ${index} is missing (run npm run build)`);
    }
  }
}
