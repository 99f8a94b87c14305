import { All, Delete, Get, Param, Patch, Post, Put, Req, Res, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { type Request, type Response } from 'express';
import { type SerializerInfo } from './metadata';
import { notFound } from './exceptions';
import { type Input } from './serializer';
import { sendJson } from './json-renderer';
import { Body, type RequestInput } from './request-input';
import { DETAIL_METHODS, LIST_METHODS, otherMethod, postActions, putActions } from './routes';

/**
 * A detail route's `{id}` as Django's URL pattern and `get_object_or_404` take it: the route matches any segment,
 * and anything that is not an id PostgreSQL's `integer` holds is a 404 (never a 500).
 */
export function parseId(text: string): number {
  if (!/^\d{1,10}$/.test(text)) throw notFound();
  const id = Number(text);
  if (id < 1 || id > 2_147_483_647) throw notFound();
  return id;
}

/** What a DRF ModelViewSet-like resource needs from its service (JSON, urlencoded or multipart input). */
export interface ResourceService {
  findOne(id: number): Promise<unknown>;
  create(readInput: () => Input): Promise<unknown>;
  update(id: number, readInput: () => Input, partial: boolean): Promise<unknown>;
  remove(id: number): Promise<void>;
}

export interface ResourceRoutesOptions {
  /** DRF's view name stem: `Device` → "Device List" / "Device Instance" in OPTIONS answers. */
  name: string;
  /** The serializer description for OPTIONS (`actions.POST` / `actions.PUT`). */
  info: SerializerInfo;
  /** OpenAPI: the representation and the writable input. */
  representation: Type<unknown>;
  input: Type<unknown>;
  createSummary?: string;
  removeSummary: string;
}

/** The handlers ResourceRoutes adds (Nest calls them; they write the response themselves). */
export interface ResourceHandlers {
  create(body: RequestInput, response: Response): Promise<void>;
  listOther(request: Request, response: Response): Promise<void>;
  findOne(id: string, response: Response): Promise<void>;
  replace(id: string, body: RequestInput, response: Response): Promise<void>;
  modify(id: string, body: RequestInput, response: Response): Promise<void>;
  remove(id: string, response: Response): Promise<void>;
  detailOther(id: string, request: Request, response: Response): Promise<void>;
}

/**
 * The routes every ModelViewSet-like resource shares, after the subclass's own `GET` list (Nest registers a
 * subclass's methods before its base's, so the list comes first and the catch-alls last): create, retrieve,
 * replace, partial update, delete, and the OPTIONS / 405 catch-alls of the list and detail paths.
 */
export function ResourceRoutes(
  options: ResourceRoutesOptions,
): new (resource: ResourceService) => ResourceHandlers {
  const { name, info, representation, input } = options;

  class ResourceRoutesBase implements ResourceHandlers {
    constructor(private readonly resource: ResourceService) {}

    @Post()
    @ApiOperation({ summary: options.createSummary ?? `Create a ${name.toLowerCase()}` })
    @ApiBody({ type: input })
    @ApiCreatedResponse({ type: representation })
    async create(@Body() body: RequestInput, @Res() response: Response): Promise<void> {
      sendJson(response, 201, await this.resource.create(() => body.read()));
    }

    @All()
    @ApiExcludeEndpoint()
    async listOther(@Req() request: Request, @Res() response: Response): Promise<void> {
      await otherMethod(request, response, LIST_METHODS, `${name} List`, postActions(info));
    }

    @Get(':id')
    @ApiOperation({ summary: `Read a ${name.toLowerCase()}` })
    @ApiOkResponse({ type: representation })
    async findOne(@Param('id') id: string, @Res() response: Response): Promise<void> {
      sendJson(response, 200, await this.resource.findOne(parseId(id)));
    }

    @Put(':id')
    @ApiOperation({ summary: `Replace a ${name.toLowerCase()}` })
    @ApiBody({ type: input })
    @ApiOkResponse({ type: representation })
    async replace(
      @Param('id') id: string,
      @Body() body: RequestInput,
      @Res() response: Response,
    ): Promise<void> {
      sendJson(response, 200, await this.resource.update(parseId(id), () => body.read(), false));
    }

    @Patch(':id')
    @ApiOperation({ summary: `Update some fields of a ${name.toLowerCase()}` })
    @ApiBody({ type: input, description: 'Any subset of the fields.' })
    @ApiOkResponse({ type: representation })
    async modify(
      @Param('id') id: string,
      @Body() body: RequestInput,
      @Res() response: Response,
    ): Promise<void> {
      sendJson(response, 200, await this.resource.update(parseId(id), () => body.read(), true));
    }

    @Delete(':id')
    @ApiOperation({ summary: options.removeSummary })
    @ApiNoContentResponse()
    async remove(@Param('id') id: string, @Res() response: Response): Promise<void> {
      await this.resource.remove(parseId(id));
      sendJson(response, 204);
    }

    @All(':id')
    @ApiExcludeEndpoint()
    async detailOther(
      @Param('id') id: string,
      @Req() request: Request,
      @Res() response: Response,
    ): Promise<void> {
      const actions = putActions(info, () => this.resource.findOne(parseId(id)));
      await otherMethod(request, response, DETAIL_METHODS, `${name} Instance`, actions);
    }
  }
  return ResourceRoutesBase;
}
