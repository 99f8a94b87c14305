import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { type Credential } from '../direct-line/credentials';
import {
  DirectLineAuthGuard,
  DirectLineCredential,
  ExemptFromEnhancedAuth,
} from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';
import { type TokenResponse, TokensService } from './tokens.service';

@Controller(V3_PREFIXES.map((prefix) => `${prefix}/tokens`))
@UseGuards(DirectLineAuthGuard)
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post('generate')
  @HttpCode(200)
  @ExemptFromEnhancedAuth()
  generate(@DirectLineCredential() credential: Credential, @Body() body: unknown): Promise<TokenResponse> {
    return this.tokens.generate(credential, body);
  }

  @Post('refresh')
  @HttpCode(200)
  refresh(@DirectLineCredential() credential: Credential): TokenResponse {
    return this.tokens.refresh(credential);
  }
}
