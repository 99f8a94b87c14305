import { All, Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type Request, type Response } from 'express';
import { sendJson } from './drf/json-renderer';
import { requestOrigin } from './drf/pagination';
import { otherMethod, ROOT_METHODS } from './drf/routes';

/** DRF DefaultRouter's API root: links to the four resources (needs authentication, like every view). */
@ApiExcludeController()
@Controller('api')
export class ApiRootController {
  @Get()
  root(@Req() request: Request, @Res() response: Response): void {
    const base = `${requestOrigin(request)}/api/`;
    sendJson(response, 200, {
      devices: `${base}devices/`,
      items: `${base}items/`,
      plans: `${base}plans/`,
      records: `${base}records/`,
    });
  }

  @All()
  async other(@Req() request: Request, @Res() response: Response): Promise<void> {
    await otherMethod(request, response, ROOT_METHODS, 'Api Root');
  }
}
