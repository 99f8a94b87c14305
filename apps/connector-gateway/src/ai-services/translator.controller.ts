import { randomUUID } from 'node:crypto';
import { All, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { OwnBody, Public } from '@fieldops/platform';
import { type TranslateResponseElement } from './dto/translate.dto';
import { readRawBody } from './raw-body';
import { TranslatorService } from './translator.service';
import { TranslatorException } from './translator-error';

/** Header naming the provider that answered (`phrasebook` or `upstream`). */
export const TRANSLATION_PROVIDER_HEADER = 'X-Translation-Provider';

/** The Translator v3 translate operation (`POST /translate?api-version=3.0&to=…`). */
@Public()
@Controller()
export class TranslatorController {
  constructor(private readonly translator: TranslatorService) {}

  @Post('translate')
  @HttpCode(200)
  @OwnBody()
  async translate(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TranslateResponseElement[]> {
    const requestId = randomUUID();
    response.setHeader('X-requestid', requestId);
    response.setHeader(TRANSLATION_PROVIDER_HEADER, this.translator.providerName);
    const outcome = await this.translator.translate({
      query: request.query,
      header: (name) => request.get(name),
      hostname: request.hostname,
      contentType: request.get('content-type'),
      readBody: () => readRawBody(request),
      requestId,
    });
    response.setHeader('X-metered-usage', String(outcome.meteredCharacters));
    response.setHeader('X-mt-system', outcome.system);
    return outcome.body;
  }

  /** Other methods on the operation: 405000, as the Translator answers. */
  @All('translate')
  other(): never {
    throw new TranslatorException(405000, 'The request method is not supported for this operation.');
  }
}
