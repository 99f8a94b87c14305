import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { sendUntrustedFile } from '@fieldops/platform';
import { type Credential } from '../direct-line/credentials';
import { DirectLineAuthGuard, DirectLineCredential } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';
import { UploadsService } from './uploads.service';

@Controller([...V3_PREFIXES])
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post('conversations/:conversationId/upload')
  @HttpCode(200)
  @UseGuards(DirectLineAuthGuard)
  upload(
    @DirectLineCredential() credential: Credential,
    @Param('conversationId') conversationId: string,
    @Query('userId') userId: unknown,
    @Req() request: Request,
  ): Promise<{ id: string }> {
    return this.uploads.upload(credential, conversationId, userId, request);
  }

  /**
   * Download of an uploaded file; the signed `t` parameter is the credential (bots fetch these URLs as they are).
   * Served as an untrusted file: a download (inert images inline), `nosniff`, sandboxed.
   */
  @Get('attachments/:conversationId/:attachmentId/:name')
  async download(
    @Param('conversationId') conversationId: string,
    @Param('attachmentId') attachmentId: string,
    @Query('t') token: unknown,
    @Res() response: Response,
  ): Promise<void> {
    sendUntrustedFile(response, await this.uploads.download(conversationId, attachmentId, token));
  }
}
