import { basename, dirname } from 'node:path';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@fieldops/platform';
import { type Response } from 'express';
import { notFound } from '../drf/exceptions';
import { IMAGE_CONTENT_TYPES } from './image-type';
import { MediaStorage } from './media-storage';

/**
 * Serves stored photos and attachments at the URLs records show. Public, like Django's MEDIA_URL behind
 * nginx: the names are 128-bit random. Photos are served inline as images; attachments always as downloads
 * (`Content-Disposition: attachment`, `nosniff`), so an uploaded HTML file never runs in the API's origin.
 */
@ApiExcludeController()
@Public()
@Controller('media')
export class MediaController {
  constructor(private readonly storage: MediaStorage) {}

  @Get(':kind/:name')
  serve(@Param('kind') kind: string, @Param('name') name: string, @Res() response: Response): Promise<void> {
    const path = this.storage.pathOf(`${kind}/${name}`);
    if (!path) throw notFound();
    const extension = name.includes('.') ? (name.split('.').pop() ?? '') : '';
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (kind === 'photos') {
      response.setHeader('Content-Type', IMAGE_CONTENT_TYPES[extension] ?? 'application/octet-stream');
    } else {
      response.setHeader('Content-Type', 'application/octet-stream');
      response.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    }
    response.setHeader('Cache-Control', 'private, max-age=3600');
    // The file is sent relative to its directory: `dotfiles: 'deny'` then judges the key's own name only, not the
    // media root's path (the default root lies under `<repo>/.data`, a dot segment `send` would otherwise refuse).
    return new Promise<void>((resolve, reject) => {
      response.sendFile(
        basename(path),
        { root: dirname(path), headers: {}, dotfiles: 'deny' },
        (error?: Error) => {
          if (!error) resolve();
          else if (response.headersSent) resolve();
          else reject(notFound());
        },
      );
    });
  }
}
